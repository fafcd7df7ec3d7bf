"""python manage.py rate_matches [--input FILE] [--games g1,g2] [--agents a,b]
                                 --bootstrap B --seed S --ties skip|half [--method connected|paper] [--json]

Rates the platform's finished matches, or a file in the seeds' format, with bootstrapped
Bradley–Terry ratings overall (every game weighted equally) and per game. ``--method paper`` fits every
agent in every game, as the GameBench paper did (its Table 2's per-game columns); the default, ``connected``,
fits a game's own connected agents only (see rating_app/README.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time

from django.core.management.base import BaseCommand, CommandError

from rating_app.ratings import RatingConfig, RatingInputError, load_seed_file, rate
from rating_app.ratings.comparisons import TIE_RULES
from rating_app.ratings.report import METHODS


class Command(BaseCommand):
    help = "Bootstrapped Bradley–Terry ratings of agents, overall and per game."

    def add_arguments(self, parser):
        parser.add_argument("--input", help="JSON file in the seeds' format; default: the platform's finished matches")
        parser.add_argument("--games", help="comma-separated games to include (default: all)")
        parser.add_argument("--agents", help="comma-separated agents to include (default: all)")
        parser.add_argument("--since", type=_date, help="platform matches finished on or after this day (YYYY-MM-DD)")
        parser.add_argument("--until", type=_date, help="platform matches finished on or before this day (YYYY-MM-DD)")
        parser.add_argument("--bootstrap", type=int, default=10_000, help="bootstrap resamples B (default 10000)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--ties", choices=TIE_RULES, default="skip", help="skip equal scores, or count half each")
        parser.add_argument("--alpha", type=float, default=0.001, help="ILSR regularisation (choix alpha)")
        parser.add_argument(
            "--method",
            choices=METHODS,
            default="connected",
            help="per game, fit the game's connected agents (connected) or every agent, as the paper did (paper)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        games = _split(opts["games"])
        agents = _split(opts["agents"])
        try:
            if opts["input"]:
                if opts["since"] or opts["until"]:
                    raise RatingInputError("--since/--until filter platform matches; a file has no dates")
                matches = load_seed_file(opts["input"])
            else:
                from rating_app.selectors import platform_results

                matches, _ = platform_results(since=opts["since"], until=opts["until"])
            if games:
                matches = [m for m in matches if m.game in games]
            if agents:
                matches = [m for m in matches if set(m.agents) <= agents]
            config = RatingConfig(
                bootstrap=opts["bootstrap"],
                seed=opts["seed"],
                ties=opts["ties"],
                alpha=opts["alpha"],
                method=opts["method"],
            )
            started = time.perf_counter()
            report = rate(matches, config)
            seconds = time.perf_counter() - started
        except RatingInputError as err:
            raise CommandError(str(err), returncode=2) from None
        if opts["json"]:
            self.stdout.write(json.dumps(as_json(report)))
        else:
            self.print_tables(report, seconds)

    def print_tables(self, report, seconds: float) -> None:
        c = report.config
        self.stdout.write(
            f"{report.n_matches} matches, {len(report.games)} games, method={c.method}, B={c.bootstrap}, "
            f"seed={c.seed}, ties={c.ties}, alpha={c.alpha}, {int(c.interval * 100)}% intervals, "
            f"library {report.library_version} ({seconds:.2f} s)"
        )
        for name, scope in report.scopes.items():
            self.stdout.write(f"\n== {name} ({scope.n_matches} matches, {scope.n_counted} counted)")
            self.stdout.write(
                f"{'rank':>4}  {'agent':<16}{'rating':>8}  {'90% interval':<17}{'ranks':<7}{'avg score':>9}{'n':>5}"
            )
            for r in scope.ratings:
                interval = f"[{r.low:6.2f}, {r.high:6.2f}]"
                ranks = f"{r.rank_low}-{r.rank_high}"
                score = "-" if r.average_score is None else f"{r.average_score:.2f}"  # None: played no match here
                line = (
                    f"{r.rank:>4}  {r.agent:<16}{r.rating:>8.2f}  {interval:<17}{ranks:<7}"
                    f"{score:>9}{r.matches:>5}"
                )
                self.stdout.write(line + ("  * " + "; ".join(r.notes) if r.notes else ""))
            for ex in scope.excluded:
                self.stdout.write(f"      not rated: {ex['agent']} ({ex['reason']})")


def as_json(report) -> dict:
    return {
        "config": vars(report.config),
        "library_version": report.library_version,
        "n_matches": report.n_matches,
        "games": report.games,
        "scopes": {
            name: {
                "n_matches": scope.n_matches,
                "n_counted": scope.n_counted,
                "agents": {
                    r.agent: {
                        "rating": r.rating,
                        "interval": [r.low, r.high],
                        "rank": r.rank,
                        "rank_interval": [r.rank_low, r.rank_high],
                        "average_score": r.average_score,
                        "matches": r.matches,
                        "notes": r.notes,
                    }
                    for r in scope.ratings
                },
                "excluded": scope.excluded,
                "components": scope.components,
            }
            for name, scope in report.scopes.items()
        },
        "average_scores": report.average_scores,
    }


def _date(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from None


def _split(value: str | None) -> set[str]:
    return {v.strip() for v in value.split(",") if v.strip()} if value else set()
