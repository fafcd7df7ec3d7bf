"""python manage.py play_match --game santorini --agents random,random --seed 7 --json [--count N]"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.test import override_settings

from agents_app.selectors import agent_choices, agent_exists
from agents_app.services import preflight
from agents_app.tasks import play_agent_turns
from gameplay.engines.registry import GAMES
from gameplay.models import Match
from gameplay.reads.result_lines import shared_winners
from gameplay.writes import services


class Command(BaseCommand):
    help = "Play and store agent-vs-agent matches; print one result per match."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(sorted(GAMES))}")
        parser.add_argument("--agents", required=True, help="comma-separated agent per seat, e.g. random,random")
        parser.add_argument("--seed", type=int, default=0, help="seed of the first match; match k uses seed+k")
        parser.add_argument("--count", type=int, default=1, help="number of matches")
        parser.add_argument("--options", default="{}", help="game options as a JSON object")
        parser.add_argument("--json", action="store_true", help="print one JSON object per match")
        parser.add_argument(
            "--allow-slow", action="store_true",
            help="go on with an agent measured slower than its decision deadline on the game (check_agent --game)",
        )

    def handle(self, *args, **opts):
        game_id = opts["game"]
        if game_id not in GAMES:
            raise CommandError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}", returncode=2)
        agents = [a.strip() for a in opts["agents"].split(",") if a.strip()]
        for name in agents:
            if not agent_exists(name):
                known = ", ".join(name for name, _ in agent_choices())
                raise CommandError(f"unknown agent {name!r}; known: {known}", returncode=2)
        for name in dict.fromkeys(agents):  # before anything starts, as run_tournament does
            try:
                preflight(name, game_id, allow_slow=opts["allow_slow"])
            except Exception as err:  # an endpoint that cannot even be probed is as good a reason not to start
                raise CommandError(f"agent {name!r} cannot play: {err}", returncode=2) from None
        try:
            options = json.loads(opts["options"])
            assert isinstance(options, dict)
        except (ValueError, AssertionError):
            raise CommandError("--options must be a JSON object", returncode=2) from None
        if opts["count"] < 1:
            raise CommandError("--count must be at least 1", returncode=2)
        for k in range(opts["count"]):
            seed = opts["seed"] + k
            try:
                match = services.create_match(
                    game_id,
                    [services.SeatController("agent", agent_name=a) for a in agents],
                    seed=seed,
                    options=options,
                    host_seat=None,
                    schedule_agents=False,
                )
            except services.ServiceError as err:
                raise CommandError(str(err), returncode=2) from None
            # Everything runs in this process, in order: the agents' turns and then, for a judged game, its verdict
            # (the judge runs inline on the last argument's commit, not on a thread the report would race).
            with override_settings(AGENT_TURNS_INLINE=True):
                play_agent_turns(match.pk)  # run in this process: the CLI needs no worker
            self.report(Match.objects.get(pk=match.pk), agents, opts["json"])

    def report(self, match: Match, agents: list[str], as_json: bool):
        moves = list(
            match.events.filter(kind="action").order_by("seq").values_list("seat", "payload__action_id")
        )
        result = {
            "match_id": match.pk,
            "game": match.game_id,
            "seed": match.seed,
            "agents": agents,
            "status": match.status,
            "scores": match.scores,
            "winner": match.winner,
            # A win several seats share (a team's, a camp's): every seat with the top score; [] for a draw.
            "winners": [match.winner] if match.winner is not None else shared_winners(match.scores),
            "teams": match.final_teams,
            "turns": len(moves),
            "moves": [f"{seat}:{action}" for seat, action in moves],
        }
        if as_json:
            self.stdout.write(json.dumps(result))
        else:
            won = result["winners"]
            winner = "draw" if not won else ", ".join(f"seat {s} ({agents[s]})" for s in won)
            self.stdout.write(
                f"match {match.pk}: {match.game_id} seed {match.seed} — {match.status}, winner {winner}, "
                f"scores {match.scores}, {len(moves)} actions"
            )
