"""python manage.py bench_gnomes [--moves 200] [--budget 1000] [--ego comm|mute]

Times the Gnomes at Night planning agent's decisions. Positions come from real simulated rounds (the agent with
the simulated partner, all five rounds, seeds 0, 1, ...), so the chat, history and beliefs are the ones the
agent meets in play; each of ``--moves`` positions is then decided once at ``--budget`` iterations, in this
process. Prints iterations per second, the p50 / p95 / max time per move and the environment.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.base import TurnView
from agents_app.agents.gnomes.evaluation import EGO_SEAT, decision_seed, make_ego, view_for
from agents_app.agents.gnomes.partner import SimulatedPartner
from gameplay.bench.measures import percentile
from gameplay.engines.gnomes import GnomesGame

# Positions are collected with a cheap agent: only where the token goes matters, not how well it plays.
COLLECTION_BUDGET = 100


class Command(BaseCommand):
    help = "Benchmark the Gnomes at Night planner: time per move at a given iteration budget."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=200)
        parser.add_argument("--budget", type=int, default=1000)
        parser.add_argument("--ego", choices=("comm", "mute"), default="comm")

    def handle(self, *args, **options):
        if options["moves"] < 1 or options["budget"] < 1:
            raise CommandError("--moves and --budget must be positive")
        views = collect_positions(options["ego"], options["moves"])
        agent = make_ego(options["ego"], options["budget"])
        agent.decide(views[0])  # warm up: index tables are built once per process
        times = []
        for view in views:
            started = time.perf_counter()
            agent.decide(view)
            times.append(time.perf_counter() - started)
        self.stdout.write(render(options, times))


def collect_positions(kind: str, wanted: int) -> list[TurnView]:
    """Agent-seat views from simulated rounds, cycling through rounds 1-5 and seeds 0, 1, ... until enough."""
    views: list[TurnView] = []
    agents = {0: SimulatedPartner(), EGO_SEAT: make_ego(kind, COLLECTION_BUDGET)}
    seed = 0
    while len(views) < wanted:
        for round_number in range(1, 6):
            state = GnomesGame(options={"round": round_number}).new_initial_state(seed)
            while not state.is_terminal() and len(views) < wanted:
                seat = state.current_seats()[0]
                view = view_for(state, seat, decision_seed(seed, round_number, state.turn, seat))
                if seat == EGO_SEAT:
                    views.append(view)
                decision = agents[seat].decide(view)
                state.apply_action(seat, decision.action_id)
                if decision.message and not state.is_terminal():
                    state.record_message(seat, decision.message)
        seed += 1
    return views


def render(options: dict, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = percentile(ms, 95)
    rate = options["budget"] * len(times) / sum(times)
    return "\n".join(
        [
            f"bench_gnomes: {options['ego']} agent, {len(times)} moves from simulated rounds, "
            f"budget {options['budget']} iterations/move",
            f"iterations/s: {rate:,.0f}",
            f"time per move (ms): p50 {statistics.median(ms):.1f}  p95 {p95:.1f}  max {ms[-1]:.1f}  "
            f"mean {statistics.fmean(ms):.1f}",
            f"environment: Python {platform.python_version()} ({sys.implementation.name}), "
            f"{os.cpu_count()} CPUs, {platform.machine()}, {platform.system()} {platform.release()}",
        ]
    )
