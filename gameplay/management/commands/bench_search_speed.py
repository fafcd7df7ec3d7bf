"""python manage.py bench_search_speed [--game hive ...] [--skip atari_boxing] [--playouts 10] [--repeats 3]

Prints measured numbers (not a pass/fail test): how fast each engine serves a tree search, which clones a state
before every action (gameplay/bench/search_speed.py). One row per game, from the initial state ("start") and from a
state halfway through a random playout ("mid"): microseconds per clone, then clones/s, actions/s and playouts/s of
random playouts that clone before each action, all in CPU time of this process. Default options; the same seeded
moves on every run.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from gameplay.bench.search_speed import measure
from gameplay.engines.registry import GAMES

HEADER = (f"{'game':<22} {'from':<5} {'ply':>4} {'clone us':>9} {'clones/s':>10} {'actions/s':>10} "
          f"{'playouts/s':>10} {'playouts':>8}")


class Command(BaseCommand):
    help = "Benchmark clones and random playouts per game, as a tree search uses an engine."

    def add_arguments(self, parser):
        parser.add_argument("--game", action="append", default=[], help="a game id (repeatable; default: all)")
        parser.add_argument("--skip", action="append", default=[], help="a game id to leave out (repeatable)")
        parser.add_argument("--playouts", type=int, default=10, help="random playouts from each state")
        parser.add_argument("--seconds", type=float, default=3.0,
                            help="stop each set of playouts after this much time (at least one playout is played)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--repeats", type=int, default=1,
                            help="play each set of playouts this many times and keep the fastest (a busy machine)")

    def handle(self, *args, **opts):
        unknown = sorted(set(opts["game"]) - set(GAMES))
        if unknown:
            raise CommandError(f"unknown game(s): {', '.join(unknown)}", returncode=2)
        games = [g for g in (opts["game"] or sorted(GAMES)) if g not in opts["skip"]]
        self.stdout.write(HEADER)
        for game_id in games:
            speed = measure(game_id, n_playouts=opts["playouts"], seed=opts["seed"], max_seconds=opts["seconds"],
                            repeats=opts["repeats"])
            for label, ply, clone, run in (("start", 0, speed.clone_us_start, speed.from_start),
                                           ("mid", speed.mid_ply, speed.clone_us_mid, speed.from_mid)):
                self.stdout.write(
                    f"{game_id:<22} {label:<5} {ply:>4} {clone:>9.1f} {run.clones_per_s:>10,.0f} "
                    f"{run.actions_per_s:>10,.0f} {run.playouts_per_s:>10.2f} {run.playouts:>8}"
                )
