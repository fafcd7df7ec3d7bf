"""python manage.py bench_play [--game santorini] [--playouts 500] [--matches 20] [--seats N] [--options JSON]

Prints measured numbers (not a pass/fail test): pure engine playout speed, stored matches through the
match service (every action in a transaction with a version check and an event), and per-seat HTML
rendering of a live view.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from django.core.management.base import BaseCommand, CommandError
from django.test import override_settings

from agents_app.tasks import play_agent_turns
from gameplay.bench.measures import percentile
from gameplay.engines.api import EngineError
from gameplay.engines.registry import GAMES, create_game
from gameplay.reads import selectors
from gameplay.web.rendering import seat_fragments
from gameplay.writes import services

# Texts tried in turn for a text action (a dialogue game's message, a clue): engines validate their text.
TEXTS = ("hello", "ok 1", "word,1", "1")


def random_move(state, seat: int, rng: random.Random) -> None:
    """A uniformly random structured action, or for a seat with only text actions (a dialogue game) a random one
    with the first text the engine accepts."""
    legal = state.legal_actions(seat)
    if legal:
        state.apply_action(seat, rng.choice(legal).id)
        return
    spec = rng.choice(state.text_actions(seat))
    # The stock texts, then numbered ones: an engine may refuse a text said before (Who is Spy's descriptions).
    for text in (*TEXTS, *(f"{text} {n}" for n in range(2, 41) for text in TEXTS)):
        try:
            state.apply_action(seat, spec.id, text)
            return
        except EngineError:
            continue
    raise EngineError(f"no text was accepted for {spec.id!r}")


class Command(BaseCommand):
    help = "Benchmark engine playouts, match-service throughput and view rendering."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="santorini")
        parser.add_argument("--playouts", type=int, default=500)
        parser.add_argument("--matches", type=int, default=20)
        parser.add_argument("--renders", type=int, default=200)
        parser.add_argument("--seats", type=int, default=None, help="seats per match (default: the game's minimum)")
        parser.add_argument("--options", default="{}", help="game options as a JSON object")

    def handle(self, *args, **opts):
        if opts["game"] not in GAMES:
            raise CommandError(f"unknown game {opts['game']!r}", returncode=2)
        game_id = opts["game"]
        try:
            game = create_game(game_id, json.loads(opts["options"]), num_seats=opts["seats"])
        except (ValueError, EngineError) as err:
            raise CommandError(f"bad --options or --seats: {err}", returncode=2) from None
        self.stdout.write(f"{game.spec.name}, {game.num_seats} seats, options {json.dumps(game.options)}")
        self.bench_engine(game, opts["playouts"])
        match = self.bench_service(game, opts["matches"])
        self.bench_render(match, opts["renders"])

    def bench_engine(self, game, n: int) -> None:
        actions = decisions = 0
        started = time.perf_counter()
        for seed in range(n):
            rng = random.Random(seed)
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                if state.awaiting_verdict():  # a judged dialogue game: its rule stands in for the judge model
                    state.apply_verdict(state.fallback_verdict(), "rule")
                    actions += 1
                    continue
                seat = rng.choice(state.current_seats())
                random_move(state, seat, rng)
                actions += 1
                decisions += len(state.current_seats()) == game.num_seats  # a decision point was completed
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"engine   {n} random playouts: {elapsed * 1000 / n:.2f} ms/playout, {actions / elapsed:,.0f} actions/s"
        )
        if game.spec.realtime:
            # Frames the game played: a full decision point each time every seat was to choose again (the last one
            # may be shorter, so this is an upper bound by at most one decision point per playout).
            frames = decisions * state.frames_per_decision()
            self.stdout.write(
                f"engine   emulated {frames:,} frames in {elapsed:.2f} s: {frames / elapsed:,.0f} frames/s "
                f"({frames / elapsed / game.frames_per_second():,.0f}x real time, incl. state snapshots per decision)"
            )
        self.bench_replay(game, state)

    def bench_replay(self, game, state) -> None:
        """Rebuilding the last playout from its seed and action log, as replays and restores do."""
        runs = 3
        started = time.perf_counter()
        for _ in range(runs):
            game.replay(state.seed, state.log)
        elapsed = (time.perf_counter() - started) / runs
        self.stdout.write(f"replay   one playout of {len(state.log)} actions from its seed and log: "
                          f"{elapsed * 1000:.1f} ms ({elapsed * 1e6 / max(len(state.log), 1):.0f} us/action)")

    def bench_service(self, game, n: int):
        actions = 0
        started = time.perf_counter()
        match = None
        for seed in range(n):
            match = services.create_match(
                game.spec.id,
                [services.SeatController("agent", agent_name="random")] * game.num_seats,
                seed=seed,
                options=game.options,
                host_seat=None,
                schedule_agents=False,
            )
            with override_settings(AGENT_TURNS_INLINE=True):  # a judged game's verdict inline, as in play_match
                actions += play_agent_turns(match.pk)
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"service  {n} stored matches of random agents: {elapsed * 1000 / n:.1f} ms/match, "
            f"{actions / elapsed:,.0f} actions/s ({elapsed * 1000 / max(actions, 1):.2f} ms/action incl. DB)"
        )
        return match

    def bench_render(self, match, n: int) -> None:
        match = selectors.match_by_id(match.pk)
        seat = match.seats.get(index=0)
        times = []
        for _ in range(n):
            started = time.perf_counter()
            seat_fragments(selectors.seat_view(match, seat))
            times.append((time.perf_counter() - started) * 1000)
        self.stdout.write(
            f"render   seat view (selectors + HTML fragments), {n} runs: median {statistics.median(times):.2f} ms, "
            f"p95 {percentile(times, 95):.2f} ms"
        )

