"""python manage.py bench_hive_render [--renders 100] [--source auto|sample|engine] [--out board.png]

Prints measured numbers (not a pass/fail test) for drawing a Hive board picture: the median and p95
of ``render_png`` over a realistic 22-piece observation (taken from random engine play when the Hive
engine is installed, else the hand-made end position in gameplay.engines.hive.picture_samples), plus the
layout computation used by the clickable overlay. The target is a median of at most 30 ms.
"""

from __future__ import annotations

import random
import statistics
import time

from django.core.management.base import BaseCommand, CommandError

from gameplay.bench.measures import percentile
from gameplay.engines.hive.picture_layout import layout
from gameplay.engines.hive.picture_samples import sample_observation
from gameplay.engines.hive.render import render_png


def engine_observation(pieces: int = 22, seed: int = 0, attempts: int = 200) -> dict | None:
    """A public observation with ``pieces`` pieces on the board from seeded random play, or None."""
    try:
        from gameplay.engines.hive import HiveGame
    except ImportError:
        return None
    game = HiveGame()
    for attempt in range(attempts):
        rng = random.Random(seed + attempt)
        state = game.new_initial_state(seed + attempt)
        while not state.is_terminal():
            data = state.observation(None).data
            if len(data["pieces"]) >= pieces:
                return dict(data)
            seat = state.current_seats()[0]
            actions = state.legal_actions(seat)
            # Prefer placements so the board fills up before a queen is surrounded.
            placements = [a for a in actions if a.path and a.path[0].startswith("hand:")]
            state.apply_action(seat, rng.choice(placements or actions).id)
    return None


class Command(BaseCommand):
    help = "Benchmark drawing a 22-piece Hive board (PNG) and its overlay layout."

    def add_arguments(self, parser):
        parser.add_argument("--renders", type=int, default=100)
        parser.add_argument("--source", choices=("auto", "sample", "engine"), default="auto")
        parser.add_argument("--out", default="", help="also write the picture to this file")

    def handle(self, *args, **opts):
        data = None
        source = "hand-made sample (end position)"
        if opts["source"] in ("auto", "engine"):
            data = engine_observation()
            if data is not None:
                source = "engine random play"
            elif opts["source"] == "engine":
                raise CommandError("the Hive engine is not available", returncode=2)
        if data is None:
            data = sample_observation("end")
        n = max(1, opts["renders"])
        render_png(data)  # warm up fonts
        times = []
        for _ in range(n):
            started = time.perf_counter()
            png = render_png(data)
            times.append((time.perf_counter() - started) * 1000)
        layout_times = []
        for _ in range(n):
            started = time.perf_counter()
            geo = layout(data)
            layout_times.append((time.perf_counter() - started) * 1000)
        if opts["out"]:
            with open(opts["out"], "wb") as fh:
                fh.write(png)
        times.sort()
        p95 = percentile(times, 95)
        self.stdout.write(
            f"hive render  {len(data['pieces'])} pieces from {source}: {geo['width']}x{geo['height']} px, "
            f"{len(png):,} bytes"
        )
        self.stdout.write(f"render_png   {n} renders: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms")
        self.stdout.write(f"layout       {n} runs: median {statistics.median(layout_times):.2f} ms")
