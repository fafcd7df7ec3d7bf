"""How often each search level plays the move of a much larger reference search, and what its other moves cost by
the reference's estimates (agents_app/evaluations/search_agreement.py): whether a game leaves room for the levels to
differ at all.

    .venv/bin/python manage.py search_agreement --games santorini,are_you_the_traitor --positions 40
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.search.levels import LEVELS
from agents_app.evaluations.search_agreement import level_agreement
from agents_app.evaluations.search_bench import searchable_games
from agents_app.management.search_options import parse_levels
from gameplay.engines.registry import game_class


class Command(BaseCommand):
    help = "Per game: each search level's agreement with, and regret against, a much larger reference search."

    def add_arguments(self, parser):
        parser.add_argument("--games", default="", help="comma-separated game ids (default: every searchable game)")
        parser.add_argument("--levels", default="1,2,3")
        parser.add_argument("--positions", type=int, default=40)
        parser.add_argument("--reference", type=int, default=3000, help="the reference search's simulations")
        parser.add_argument("--seats", type=int, default=0, help="seats (default: the game's fewest)")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, **opts):
        games = [g for g in opts["games"].split(",") if g] or searchable_games()
        unknown = [g for g in games if g not in searchable_games()]
        if unknown:
            raise CommandError(f"not searchable: {', '.join(unknown)}")
        levels = parse_levels(opts["levels"])
        self.stdout.write(f"reference: {opts['reference']} simulations; {opts['positions']} positions per game "
                          f"reached by random play, seed {opts['seed']}")
        self.stdout.write(f"{'game':22} {'level':>5} {'sims':>6} {'agrees':>7} {'mean regret':>12} {'worst':>7}")
        for game_id in games:
            seats = opts["seats"] or game_class(game_id).spec.min_seats
            for row in level_agreement(game_id, seats, levels, opts["positions"], opts["reference"], opts["seed"]):
                self.stdout.write(f"{game_id:22} {row.level:>5} {LEVELS[row.level].simulations:>6} "
                                  f"{row.agree:>7.0%} {row.regret:>12.3f} {row.worst:>7.3f}")
