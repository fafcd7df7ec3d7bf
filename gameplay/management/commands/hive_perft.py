"""python manage.py hive_perft --depth N [--expansions MLP] [--position "<UHP game string>"]

Counts the leaf nodes of Hive's move tree (perft) to check move generation against published
tables. Prints one progress line per root move (its subtree count), then the elapsed time, then
the node count alone on the last line.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from gameplay.engines.api import EngineError
from gameplay.engines.hive import HiveGame, load_game_string
from gameplay.engines.hive.perft import divide, perft
from gameplay.engines.hive.uhp import game_type_string


class Command(BaseCommand):
    help = "Hive perft: count move-tree leaf nodes to a depth (from the start or a UHP game string)."

    def add_arguments(self, parser):
        parser.add_argument("--depth", type=int, required=True, help="plies to search (>= 0)")
        parser.add_argument("--expansions", default=None, help="expansion letters from MLP, e.g. MLP")
        parser.add_argument(
            "--position", default=None, help='a UHP game string, e.g. "Base;InProgress;White[2];wS1;bS1 wS1-"'
        )

    def handle(self, *args, **opts):
        depth = opts["depth"]
        if depth < 0:
            raise CommandError("--depth must be 0 or more", returncode=2)
        expansions = opts["expansions"]
        if expansions is not None:
            expansions = expansions.strip().upper()
            if expansions.startswith("BASE"):
                expansions = expansions[4:].lstrip("+")
            if any(x not in "MLP" for x in expansions) or len(set(expansions)) != len(expansions):
                raise CommandError(
                    f"--expansions takes distinct letters from MLP, got {opts['expansions']!r}", returncode=2
                )
            expansions = "".join(x for x in "MLP" if x in expansions)
        if opts["position"]:
            try:
                state = load_game_string(opts["position"])
            except EngineError as exc:
                raise CommandError(f"bad --position: {exc}", returncode=2) from None
            if expansions is not None and expansions != state.pos.expansions:
                raise CommandError(
                    f"--expansions {expansions or '(none)'} contradicts the position's game type "
                    f"{game_type_string(state.pos.expansions)}", returncode=2,
                )
        else:
            expansions = expansions or ""
            state = HiveGame({
                "mosquito": "M" in expansions, "ladybug": "L" in expansions, "pillbug": "P" in expansions,
            }).new_initial_state(0)
        where = "the start" if not opts["position"] else f"{len(state.moves_played)} moves in"
        self.stdout.write(f"perft {game_type_string(state.pos.expansions)} from {where}, depth {depth}")
        started = time.perf_counter()
        if depth <= 1:
            total = perft(state, depth)
        else:
            total = 0
            for move, count in divide(state, depth):
                total += count
                self.stdout.write(f"  {move}: {count}")
                self.stdout.flush()
        elapsed = time.perf_counter() - started
        self.stdout.write(f"elapsed: {elapsed:.3f} s")
        self.stdout.write(str(total))
