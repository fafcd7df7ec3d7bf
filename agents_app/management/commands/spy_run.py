"""python manage.py spy_run --guest NAME --hosts NAME[,NAME...] [--seats 4] [--seed 0] [--pairs-file PATH]
[--pairs N] [--options JSON] [--plan] [--json]

Seed 002's SpyGame run (section 3.4): every word pair played twice, each of its words once as the spy word, with the
guest agent always the spy and the hosts on the other seats; the spy's seat varies from match to match so the guest's
name does too (agents_app/evaluations/spy_design.py plans it from --seed). Each match is played and stored by
``play_match`` (seed ``--seed + k`` for match k); read the seed's metrics afterwards with
``spy_metrics --agent GUEST`` and probe the seats with ``spy_probes``.

Pairs: ``--pairs-file PATH``, a JSON list of two-word lists (the format of fixtures/who_is_spy_pairs.json and of
SpyGame's prompt/keyword_set.json), else the built-in list; ``--pairs N`` keeps the first N. ``--options`` adds other
game options (max_rounds, seat_names, content_free, ...); the plan sets pair_index, spy_word, spy_seat and word_pairs
itself. ``--plan`` prints the plan without playing.
"""

from __future__ import annotations

import io
import json

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from agents_app.evaluations.spy_design import (
    GAME_ID,
    PLANNED_OPTIONS,
    PairsFileError,
    plan_run,
    read_pairs_file,
)
from gameplay.engines.api import EngineError
from gameplay.engines.registry import create_game
from gameplay.engines.who_is_spy.words import word_pairs


class Command(BaseCommand):
    help = "Play seed 002's SpyGame design: each word pair twice, each word once as the guest's spy word."

    def add_arguments(self, parser):
        parser.add_argument("--guest", required=True, help="the agent evaluated: always the spy")
        parser.add_argument("--hosts", required=True, help="the host agent, or one per other seat, comma-separated")
        parser.add_argument("--seats", type=int, default=4, help="players per match (seed 002: 4)")
        parser.add_argument("--seed", type=int, default=0, help="the run's seed: the plan and match k's seed+k")
        parser.add_argument("--pairs-file", help="a JSON list of word pairs (default: the built-in list)")
        parser.add_argument("--pairs", type=int, default=0, help="only the first N pairs (0: all)")
        parser.add_argument("--options", default="{}", help="other game options as a JSON object")
        parser.add_argument("--plan", action="store_true", help="print the plan only; play nothing")
        parser.add_argument("--json", action="store_true", help="print one JSON object per match")

    def handle(self, *args, **opts):
        pairs, built_in = self._pairs(opts)
        extra = self._extra_options(opts["options"])
        hosts = [h.strip() for h in opts["hosts"].split(",") if h.strip()]
        seats = opts["seats"]
        plan = plan_run(pairs, seats=seats, seed=opts["seed"], built_in=built_in)
        try:
            agents = [p.agents(opts["guest"], hosts, seats) for p in plan]
            create_game(GAME_ID, plan[0].options(extra), num_seats=seats)  # options and seats checked before a match
        except (ValueError, EngineError) as err:
            raise CommandError(str(err), returncode=2) from None
        won = 0
        for planned, seat_agents in zip(plan, agents, strict=True):
            row = {"match": planned.number, "seed": planned.seed, "pair": list(planned.pair),
                   "spy_word": planned.spy_text, "villager_word": planned.villager_text, "spy_seat": planned.spy_seat,
                   "agents": seat_agents}
            if not opts["plan"]:
                result = self._play(planned, seat_agents, extra)
                row.update(match_id=result["match_id"], guest_won=planned.spy_seat in result["winners"])
                won += row["guest_won"]
            self.stdout.write(json.dumps(row, ensure_ascii=False) if opts["json"] else self._line(row))
        if not opts["json"]:
            what = "Planned" if opts["plan"] else "Played"
            self.stdout.write(f"{what} {len(plan)} match(es): {len(pairs)} pair(s), each word once as the spy word of "
                              f"{opts['guest']}" + ("" if opts["plan"] else f"; {opts['guest']} won {won}. Metrics: "
                                                    f"manage.py spy_metrics --agent {opts['guest']}"))

    @staticmethod
    def _pairs(opts) -> tuple[tuple[tuple[str, str], ...], bool]:
        if opts.get("pairs_file"):
            try:
                pairs, built_in = read_pairs_file(opts["pairs_file"]), False
            except PairsFileError as err:
                raise CommandError(str(err), returncode=2) from None
        else:
            pairs, built_in = word_pairs(), True
        if opts["pairs"] < 0:
            raise CommandError("--pairs must be 0 (all) or more", returncode=2)
        return (pairs[: opts["pairs"]] if opts["pairs"] else pairs), built_in

    @staticmethod
    def _extra_options(text: str) -> dict:
        try:
            extra = json.loads(text)
            assert isinstance(extra, dict)
        except (ValueError, AssertionError):
            raise CommandError("--options must be a JSON object", returncode=2) from None
        planned = sorted(set(extra) & set(PLANNED_OPTIONS))
        if planned:
            raise CommandError(f"--options may not set {', '.join(planned)}: the run's plan sets them per match",
                               returncode=2)
        return extra

    @staticmethod
    def _play(planned, seat_agents: list[str], extra: dict) -> dict:
        out = io.StringIO()
        call_command("play_match", game=GAME_ID, agents=",".join(seat_agents), seed=planned.seed,
                     options=json.dumps(planned.options(extra), ensure_ascii=False), json=True, stdout=out)
        return json.loads(out.getvalue().strip().splitlines()[-1])

    @staticmethod
    def _line(row: dict) -> str:
        played = f"match {row['match_id']}: " if "match_id" in row else ""
        result = "" if "guest_won" not in row else (" — guest won" if row["guest_won"] else " — guest lost")
        return (f"{row['match']:>3}. {played}seed {row['seed']}, spy word {row['spy_word']!r} (villagers "
                f"{row['villager_word']!r}), spy seat {row['spy_seat']}{result}")
