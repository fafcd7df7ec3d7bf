"""python manage.py gnomes_tune [--budget N] [--workers 2] [--seeds N] [--json]

Sweeps the Gnomes belief weights (agents_app.agents.gnomes.tuning.SWEEP: one weight at a time around the
current defaults) on the tuning seeds only (1000..1029, never gnomes_eval's), plays rounds 1-5 with the
template partner for the communicating agent (chat on) and the mute agent (chat off), and prints each
candidate's mean turns (a failed round counted at the turn cap), best first. The defaults in
belief.BeliefConstants are the values this sweep found best; the Gnomes README quotes the run.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from dataclasses import asdict

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.gnomes.tuning import TUNING_SEEDS, TUNING_SEEDS_TEXT, candidates, jobs_for, objective, tune_job


class Command(BaseCommand):
    help = "Tune the Gnomes belief weights on the tuning seeds (never the evaluation seeds)."

    def add_arguments(self, parser):
        parser.add_argument("--budget", type=int, default=1000, help="planner iterations per move")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--seeds", type=int, default=len(TUNING_SEEDS),
                            help=f"how many of the tuning seeds {TUNING_SEEDS_TEXT} to use, from the first")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        if not 1 <= options["seeds"] <= len(TUNING_SEEDS) or options["budget"] < 1 or options["workers"] < 1:
            raise CommandError(f"--seeds must be 1..{len(TUNING_SEEDS)}; --budget and --workers positive")
        seeds = TUNING_SEEDS[: options["seeds"]]
        rows = []
        started = time.perf_counter()
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(options["workers"]) as pool:
            for constants in candidates():
                jobs = jobs_for(constants, options["budget"], seeds)
                results = pool.map(tune_job, jobs, chunksize=4)
                rows.append({**asdict(constants), **{k: round(v, 2) for k, v in objective(jobs, results).items()}})
                if not options["json"]:
                    self.stdout.write(f"  {_describe(rows[-1])}")
        rows.sort(key=lambda row: row["sum"])
        report = {"seeds": [seeds.start, seeds.stop - 1], "budget": options["budget"], "candidates": rows,
                  "best": rows[0], "seconds": round(time.perf_counter() - started, 1)}
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(f"Tuning seeds {seeds.start}..{seeds.stop - 1}, best first:")
        for row in rows:
            self.stdout.write(f"  {_describe(row)}")
        self.stdout.write(f"({report['seconds']} s)")


def _describe(row: dict) -> str:
    return (
        f"hint {row['hint_factor']:<4} move {row['move_factor']:<4} decline {row['decline_likelihood']:<4} | "
        f"comm {row['comm']:>6.2f}  mute {row['mute']:>6.2f}  sum {row['sum']:>7.2f}"
    )
