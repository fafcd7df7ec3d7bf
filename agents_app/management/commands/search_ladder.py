"""A round robin of random play and the search levels on one game, rated with the platform's own ratings
(bootstrapped Bradley-Terry, rating_app.ratings): the levels should rate in order, adjacent ones apart.

    .venv/bin/python manage.py search_ladder --game santorini --per-pair 30 --levels 1,2,3 --jobs 2

In a game of more than two seats the pair of players shares the table (A, B, A, ...), or with ``--table 3`` (or
more) every group of three players does (A, B, C, ...): one match then compares three players, not two. As in the
platform's ratings, every two seats of different players (and, where the game plays in teams, of different teams
at the end) make one comparison.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.search.levels import LEVELS
from agents_app.evaluations.search_bench import ladder_jobs, ladder_players, play_all, searchable_games
from gameplay.engines.registry import game_class
from rating_app.ratings import MatchResult, RatingConfig, rate, rating_differences


def _open(path: str, mode: str):
    """A run's file as text: gzipped when its name ends .gz (a kept measurement of thousands of matches, compact)."""
    if path.endswith(".gz"):
        return gzip.open(path, mode + "t", encoding="utf-8")
    return open(path, mode, encoding="utf-8")


class Command(BaseCommand):
    help = "Round robin of random play and the search levels on one game, rated with bootstrapped Bradley-Terry."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True)
        parser.add_argument("--levels", default=",".join(str(level) for level in sorted(LEVELS)))
        parser.add_argument("--per-pair", type=int, default=20,
                            help="matches per pair of players (per group, with --table above 2)")
        parser.add_argument("--table", type=int, default=2,
                            help="different players at each table, in a game of more seats (default 2: the pairs)")
        parser.add_argument("--seats", type=int, default=0, help="seats per match (default: the game's fewest)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--jobs", type=int, default=1)
        parser.add_argument("--bootstrap", type=int, default=2000)
        parser.add_argument("--json", default="",
                            help="also write the rating report and the matches to this file (gzipped if it ends .gz)")
        parser.add_argument("--without-random", action="store_true",
                            help="the levels only (e.g. --levels 2,3: those two head to head)")
        parser.add_argument("--rate", nargs="+", default=[], metavar="FILE",
                            help="play nothing: rate the matches saved by earlier runs' --json, together")

    def handle(self, *args, **opts):
        game_id = opts["game"]
        if game_id not in searchable_games():
            raise CommandError(f"{game_id} is not searchable; searchable: {', '.join(searchable_games())}")
        if opts["rate"]:
            matches, seeds = self._saved(game_id, opts["rate"])
            self.stdout.write(f"{game_id}: {len(matches)} saved matches from {len(opts['rate'])} file(s)")
        else:
            matches, seeds = self._played(game_id, opts)
        config = RatingConfig(bootstrap=opts["bootstrap"], seed=opts["seed"])
        report = rate(matches, config)
        self._print(report.scopes[game_id], matches, config)
        if opts["json"]:
            # The matches too, so that the round robin can be rated again (other settings) without replaying it.
            data = {**report.to_json(), "matches": [
                {"agents": list(m.agents), "scores": list(m.scores),
                 "teams": list(m.teams) if m.teams else None, "seed": seed}
                for m, seed in zip(matches, seeds, strict=True)]}
            with _open(opts["json"], "w") as handle:
                json.dump(data, handle, **({} if opts["json"].endswith(".gz") else {"indent": 2}))

    def _played(self, game_id: str, opts) -> tuple[list[MatchResult], list[int]]:
        spec = game_class(game_id).spec
        seats = opts["seats"] or spec.min_seats
        if not spec.min_seats <= seats <= spec.max_seats:
            raise CommandError(f"{game_id} is played by {spec.min_seats} to {spec.max_seats}")
        try:
            levels = sorted({int(level) for level in opts["levels"].split(",") if level})
        except ValueError:
            raise CommandError("--levels takes numbers, e.g. 1,2,3") from None
        if not levels or any(level not in LEVELS for level in levels):
            raise CommandError(f"--levels must name levels among {sorted(LEVELS)}")
        with_random = not opts["without_random"]
        if len(levels) + with_random < 2:
            raise CommandError("a round robin needs two players: name two levels, or keep random")
        table = opts["table"]
        try:
            jobs = ladder_jobs(game_id, levels, opts["per_pair"], opts["seed"], seats, with_random, table)
        except ValueError as error:
            raise CommandError(f"--table: {error} here") from None
        group = "pair" if table == 2 else f"group of {table}"
        self.stdout.write(f"{game_id}: {len(jobs)} matches of {seats} seats ({opts['per_pair']} per {group}), "
                          f"{opts['jobs']} job(s)")
        results = play_all(jobs, opts["jobs"])
        matches = [MatchResult(game_id, names, tuple(r.scores), tuple(r.teams))
                   for (_, names, _), r in zip(jobs, results, strict=True)]
        return matches, [seed for _, _, seed in jobs]

    def _saved(self, game_id: str, paths: list[str]) -> tuple[list[MatchResult], list[int]]:
        """The matches saved by earlier runs' --json (runs split over processes, say), each seed once: a match
        counted twice would narrow the intervals with no new evidence."""
        matches, seeds = [], []
        for path in paths:
            try:
                with _open(path, "r") as handle:
                    data = json.load(handle)
            except (OSError, ValueError, EOFError) as error:
                raise CommandError(f"{path}: {error}") from None
            if game_id not in data.get("scopes", {}) or "matches" not in data:
                raise CommandError(f"{path} holds no saved matches of {game_id}")
            for saved in data["matches"]:
                teams = tuple(saved["teams"]) if saved["teams"] else None
                matches.append(MatchResult(game_id, tuple(saved["agents"]), tuple(saved["scores"]), teams))
                seeds.append(saved["seed"])
        repeated = sorted(seed for seed, count in Counter(seeds).items() if count > 1)
        if repeated:
            raise CommandError(f"the files share match seeds ({', '.join(map(str, repeated[:5]))}, ...): "
                               "the same matches would count twice; give the runs different --seed")
        return matches, seeds

    def _print(self, scope, matches: list[MatchResult], config: RatingConfig) -> None:
        by_agent = {r.agent: r for r in scope.ratings}
        self.stdout.write(f"{'player':10} {'rating':>8} {'90% interval':>20} {'avg score':>10} {'matches':>8}")
        names = {name for m in matches for name in m.agents}
        order = [name for name in ladder_players(sorted(LEVELS)) if name in names]
        for name in order:
            r = by_agent.get(name)
            if r is None:
                self.stdout.write(f"{name:10} (not rated)")
                continue
            self.stdout.write(f"{name:10} {r.rating:>8.2f} {f'[{r.low:.2f}, {r.high:.2f}]':>20} "
                              f"{r.average_score:>10.3f} {r.matches:>8}")
        rated = [by_agent[name] for name in order if name in by_agent]
        increasing = all(a.rating < b.rating for a, b in zip(rated, rated[1:], strict=False))
        apart = [f"{a.agent}<{b.agent}" for a, b in zip(rated, rated[1:], strict=False) if a.high < b.low]
        self.stdout.write(f"strictly increasing by level: {'yes' if increasing else 'no'}; "
                          f"adjacent pairs with 90% intervals apart: {', '.join(apart) or 'none'}")
        # Each player's interval carries the shift of the mean that centres the ratings; the gap between two adjacent
        # players, read from the same resamples, does not (rating_app/ratings/differences.py says why).
        pairs = [(a.agent, b.agent) for a, b in zip(rated, rated[1:], strict=False)]
        self.stdout.write("gap between adjacent players (90% interval over the same resamples):")
        gaps = rating_differences(matches, pairs, config)
        for gap in gaps:
            self.stdout.write(f"  {gap.higher} - {gap.lower}: {gap.difference:+.2f} "
                              f"[{gap.low:+.2f}, {gap.high:+.2f}]{' above zero' if gap.apart else ''}")
        for gap in (gap for gap in gaps if gap.one_sided):
            self.stdout.write(
                f"{gap.lower} beat {gap.higher} in {gap.upsets} of {gap.compared} matches: the resamples that draw "
                "none of them leave that gap to the regularisation and widen every player's interval; more matches of "
                "the pair (--levels ... --without-random, rated with these by --rate) narrow them")
