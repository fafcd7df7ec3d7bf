"""python manage.py bench_ratings [--input FILE] [--bootstrap B] [--seed S]

Times the vectorised bootstrap fit against a plain loop that calls choix once per resample
(rating_app.ratings.choix_reference), on the very same resamples of the overall scope, and prints
both times, their ratio, the largest disagreement and the time of a whole rating run.
"""

from __future__ import annotations

import time

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand

from rating_app.ratings import RatingConfig, fit_batch, load_seed_file, rate
from rating_app.ratings.bootstrap import resampled_wins, scope_inputs
from rating_app.ratings.choix_reference import fit_one


class Command(BaseCommand):
    help = "Benchmark: vectorised bootstrap fit vs one choix call per resample."

    def add_arguments(self, parser):
        parser.add_argument("--input", default=str(settings.BASE_DIR / "fixtures" / "gamebench_matches.json"))
        parser.add_argument("--bootstrap", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, **opts):
        matches = load_seed_file(opts["input"])
        config = RatingConfig(bootstrap=opts["bootstrap"], seed=opts["seed"])
        agents, rows, weights = scope_inputs(matches, config.ties, overall=True)
        k = len(agents)
        wins = np.concatenate(list(resampled_wins("overall", rows, weights, k, config)))

        started = time.perf_counter()
        vectorised = fit_batch(wins, alpha=config.alpha, max_iter=1_000)
        t_vec = time.perf_counter() - started

        started = time.perf_counter()
        looped = np.array([fit_one(w, alpha=config.alpha) for w in wins])
        t_loop = time.perf_counter() - started

        started = time.perf_counter()
        rate(matches, config)
        t_full = time.perf_counter() - started

        self.stdout.write(f"{len(matches)} matches, {k} agents, B={config.bootstrap} resamples (overall scope)")
        self.stdout.write(f"vectorised fit:          {t_vec:8.3f} s")
        self.stdout.write(f"choix, one call each:    {t_loop:8.3f} s")
        self.stdout.write(f"speed-up:                {t_loop / t_vec:8.1f}x")
        self.stdout.write(f"max |difference|:        {np.abs(vectorised - looped).max():.2e}")
        self.stdout.write(f"full rate() all scopes:  {t_full:8.3f} s")

