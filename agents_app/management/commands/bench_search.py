"""Measure the search agents per game: simulations a second, a level's decision time (mean, p95, max) and its
results over seeded matches against random players (two seats: wins with a 95% Wilson interval; more seats: the mean
score against the fair share, with a 95% t-interval).

    .venv/bin/python manage.py bench_search                      # every searchable game, level 3, 100 matches
    .venv/bin/python manage.py bench_search --games santorini,hive --matches 20 --level 2 --jobs 2
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.search.levels import DEFAULT_LEVEL, LEVELS
from agents_app.evaluations.search_bench import searchable_games, versus_random
from gameplay.engines.registry import game_class


class Command(BaseCommand):
    help = "Measure the search agent per game: simulations/s, decision times and results against random play."

    def add_arguments(self, parser):
        parser.add_argument("--games", default="", help="comma-separated game ids (default: every searchable game)")
        parser.add_argument("--matches", type=int, default=100)
        parser.add_argument("--level", type=int, default=DEFAULT_LEVEL, choices=sorted(LEVELS))
        parser.add_argument("--seats", type=int, default=0, help="seats per match (default: the game's fewest)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--jobs", type=int, default=1, help="processes playing matches at once")
        parser.add_argument("--json", action="store_true", help="one JSON object per game instead of the table")

    def handle(self, *args, **opts):
        games = [g for g in opts["games"].split(",") if g] or searchable_games()
        unknown = [g for g in games if g not in searchable_games()]
        if unknown:
            raise CommandError(f"not searchable: {', '.join(unknown)}; searchable: {', '.join(searchable_games())}")
        if not opts["json"]:
            self.stdout.write(f"level {opts['level']}, {opts['matches']} matches per game against random, "
                              f"seed {opts['seed']}, {opts['jobs']} job(s)")
            self.stdout.write(f"{'game':22} {'seats':>5} {'sims/s':>8} {'mean ms':>8} {'p95 ms':>8} {'max ms':>8}  "
                              "result against random")
        for game_id in games:
            spec = game_class(game_id).spec
            seats = opts["seats"] or spec.min_seats
            row = versus_random(game_id, opts["matches"], opts["level"], seats, opts["seed"], opts["jobs"])
            if opts["json"]:
                self.stdout.write(json.dumps(row.__dict__))
                continue
            if seats == 2:
                result = (f"won {row.wins}/{row.matches} = {row.wins / row.matches:.0%} "
                          f"[{row.win_low:.0%}, {row.win_high:.0%}], {row.draws} drawn")
            else:
                result = (f"mean score {row.mean_score:.3f} [{row.score_low:.3f}, {row.score_high:.3f}] "
                          f"against a fair share of {row.fair_share:.3f}; won {row.wins}/{row.matches}")
            self.stdout.write(f"{game_id:22} {seats:>5} {row.sims_per_second:>8.0f} {row.think_mean_ms:>8.0f} "
                              f"{row.think_p95_ms:>8.0f} {row.think_max_ms:>8.0f}  {result}")
