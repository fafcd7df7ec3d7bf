"""Weighted bootstrap of Bradley–Terry ratings, overall (every game weighted equally) and per game.

Per game, ``RatingConfig.method`` chooses whom to fit (see ``report.METHODS``): the agents that played the game
("connected", the default) or every agent of the input ("paper", as the GameBench paper did).
"""

from __future__ import annotations

import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import LIBRARY_VERSION
from .comparisons import comparison_matrix, connected_components
from .ilsr import fit_batch, win_probability
from .report import METHODS, AgentRating, RatingConfig, RatingReport, ScopeRating
from .results import MatchResult, RatingInputError

# Resamples fitted per batch: bounds memory (batch x matches x agents^2) on large inputs.
BATCH = 2_000


def rate(matches: Sequence[MatchResult], config: RatingConfig | None = None) -> RatingReport:
    """Ratings for every game on its own and for all games together."""
    config = config or RatingConfig()
    if not matches:
        raise RatingInputError("no matches to rate")
    if config.bootstrap < 1:
        raise RatingInputError("the number of bootstrap resamples must be at least 1")
    if config.method not in METHODS:
        raise RatingInputError(f"unknown rating method {config.method!r}: choose one of {', '.join(METHODS)}")
    games = sorted({m.game for m in matches})
    agents = sorted({a for m in matches for a in m.agents})
    # The paper method fits every agent of the input in each game's scope; the connected method, the game's own.
    fitted = agents if config.method == "paper" else None
    per_game = Counter(m.game for m in matches)
    # w = 1 / N_game, counted over all of a game's matches (ties included), as the seeds did.
    weights = np.array([1.0 / per_game[m.game] for m in matches])
    scopes = {"overall": rate_scope("overall", matches, weights, config)}
    for game in games:
        subset = [m for m in matches if m.game == game]
        scopes[game] = rate_scope(game, subset, np.ones(len(subset)), config, fitted)
    return RatingReport(
        config=config,
        library_version=LIBRARY_VERSION,
        games=games,
        agents=agents,
        n_matches=len(matches),
        scopes=scopes,
        average_scores=average_scores(matches),
        match_counts_by_game={g: pair_counts([m for m in matches if m.game == g]) for g in games},
    )


def rate_scope(
    scope: str,
    matches: Sequence[MatchResult],
    weights: np.ndarray,
    config: RatingConfig,
    fitted: Sequence[str] | None = None,
) -> ScopeRating:
    """One scope's ratings. ``fitted``: fit exactly these agents, absent ones and unlinked groups included (the
    paper method); None: the scope's own agents, and only their largest connected group."""
    games = sorted({m.game for m in matches})
    fits = scope_fits(scope, matches, weights, config, fitted)
    return summarise(scope, games, matches, fits, config)


@dataclass(frozen=True)
class ScopeFits:
    """A scope's bootstrap before it is summarised: ``samples[b, i]`` is agent ``agents[i]``'s rating in resample b."""

    agents: list[str]
    samples: np.ndarray
    absent: np.ndarray
    totals: np.ndarray
    rows: np.ndarray
    excluded: list[dict]
    components: list


def scope_fits(
    scope: str,
    matches: Sequence[MatchResult],
    weights: np.ndarray,
    config: RatingConfig,
    fitted: Sequence[str] | None = None,
) -> ScopeFits:
    """The resampled fits behind a scope's ratings (``rate_scope`` summarises them; ``differences`` reads them)."""
    all_agents = sorted(fitted) if fitted is not None else sorted({a for m in matches for a in m.agents})
    rows = comparison_matrix(matches, all_agents, config.ties)
    k = len(all_agents)
    totals = rows.sum(axis=0).reshape(k, k)
    components = connected_components(all_agents, totals)
    excluded = []
    agents = all_agents
    if len(components) > 1 and fitted is None:
        # Ratings of agents never compared, even indirectly, are not comparable: rate the largest
        # connected group and say who was left out, instead of letting regularisation invent numbers.
        agents = sorted(components[0])
        for group in components[1:]:
            for agent in group:
                excluded.append({"agent": agent, "reason": "no counted comparison links it to " + ", ".join(agents)})
        rows = comparison_matrix(matches, agents, config.ties)
        k = len(agents)
        totals = rows.sum(axis=0).reshape(k, k)
    samples, absent = bootstrap_fits(scope, rows, weights, k, config)
    return ScopeFits(agents, samples, absent, totals, rows, excluded, components)


def bootstrap_fits(scope: str, rows: np.ndarray, weights: np.ndarray, k: int, config: RatingConfig):
    """B weighted resamples, each fitted; returns (B, K) ratings and per-agent absence counts."""
    samples = np.empty((config.bootstrap, k))
    absent = np.zeros(k, dtype=int)
    start = 0
    for wins in resampled_wins(scope, rows, weights, k, config):
        samples[start : start + len(wins)] = fit_batch(wins, alpha=config.alpha, max_iter=1_000)
        compared = (wins.sum(axis=2) + wins.sum(axis=1)) > 0
        absent += (~compared).sum(axis=0)
        start += len(wins)
    return samples, absent


def resampled_wins(scope: str, rows: np.ndarray, weights: np.ndarray, k: int, config: RatingConfig):
    """Yield batches of win matrices (size, K, K), one per resample: n matches drawn with replacement, P ∝ w."""
    n = rows.shape[0]
    # Each scope gets its own stream, fixed by the seed and the scope's name.
    rng = np.random.default_rng([config.seed, zlib.crc32(scope.encode())])
    probabilities = weights / weights.sum()
    for start in range(0, config.bootstrap, BATCH):
        size = min(BATCH, config.bootstrap - start)
        picks = rng.choice(n, size=(size, n), p=probabilities)
        counts = np.bincount((picks + n * np.arange(size)[:, None]).ravel(), minlength=size * n).reshape(size, n)
        yield (counts @ rows).reshape(size, k, k)


def scope_inputs(matches: Sequence[MatchResult], ties: str, overall: bool):
    """(agents, comparison rows, weights) of a scope before any exclusion; for benchmarks and checks."""
    agents = sorted({a for m in matches for a in m.agents})
    per_game = Counter(m.game for m in matches)
    weights = np.array([1.0 / per_game[m.game] for m in matches]) if overall else np.ones(len(matches))
    return agents, comparison_matrix(matches, agents, ties), weights


def summarise(
    scope: str, games: list[str], matches: Sequence[MatchResult], fits: ScopeFits, config: RatingConfig
) -> ScopeRating:
    """A scope's ratings from its resampled fits: each agent's mean, interval and rank range, and the notes that
    say when a rating rests on the regularisation alone."""
    agents, samples, absent, totals, rows = fits.agents, fits.samples, fits.absent, fits.totals, fits.rows
    tail = (1.0 - config.interval) / 2 * 100
    means = samples.mean(axis=0)
    low, high = np.percentile(samples, [tail, 100 - tail], axis=0)
    # Rank of each agent in each resample (1 = best).
    ranks = np.argsort(np.argsort(-samples, axis=1), axis=1) + 1
    rank_low, rank_high = np.percentile(ranks, [tail, 100 - tail], axis=0)
    order = list(np.argsort(-means, kind="stable"))
    played = Counter(a for m in matches for a in set(m.agents))
    scores = _mean_scores(matches)
    wins_total, losses_total = totals.sum(axis=1), totals.sum(axis=0)
    ratings = []
    for position, i in enumerate(order, start=1):
        notes = []
        if played[agents[i]] == 0:  # only the paper method fits agents absent from the scope
            notes.append("played no match here: rating set by the regularisation alone (paper method)")
        elif wins_total[i] == 0 and losses_total[i] == 0:
            notes.append("no counted comparison (only ties or self-play): the rating carries no information")
        elif wins_total[i] == 0:
            notes.append("never won a counted comparison: rating bounded only by the regularisation")
        elif losses_total[i] == 0:
            notes.append("never lost a counted comparison: rating bounded only by the regularisation")
        ratings.append(
            AgentRating(
                agent=agents[i],
                rating=float(means[i]),
                low=float(low[i]),
                high=float(high[i]),
                rank=position,
                rank_low=int(np.floor(rank_low[i])),
                rank_high=int(np.ceil(rank_high[i])),
                average_score=scores.get(agents[i]),
                matches=played[agents[i]],
                absent_resamples=int(absent[i]),
                notes=notes,
            )
        )
    ranked = [agents[i] for i in order]
    probabilities = win_probability(means[order])
    counts = pair_counts(matches)
    return ScopeRating(
        scope=scope,
        games=games,
        agents=ranked,
        ratings=ratings,
        win_probability=[[float(p) for p in row] for row in probabilities],
        match_counts=[[counts.get(a, {}).get(b, 0) for b in ranked] for a in ranked],
        n_matches=len(matches),
        n_counted=int((rows.sum(axis=1) > 0).sum()),
        excluded=fits.excluded,
        components=fits.components if len(fits.components) > 1 else [],
    )


def _mean_scores(matches: Sequence[MatchResult]) -> dict[str, float]:
    """Each agent's mean result per match played. In a match, an agent's result is the mean of its seats' results, a
    seat counting its score or, when the match was played in teams, its team's summed score (the rule of the
    platform's tables, gameplay/reads/player_results.py, restated here so that the library stands alone): a
    three-way draw seated A, B, A is 1/3 for each agent, and a team's win is a whole win for its agent."""
    total, count = defaultdict(float), Counter()
    for m in matches:
        held: dict[str, list[float]] = defaultdict(list)
        for agent, result in zip(m.agents, m.seat_results(), strict=True):
            held[agent].append(result)
        for agent, mine in held.items():
            total[agent] += sum(mine) / len(mine)
            count[agent] += 1
    return {a: total[a] / count[a] for a in count}


def average_scores(matches: Sequence[MatchResult]) -> dict[str, dict[str, float]]:
    """Agent -> game -> total score / matches played in that game, plus "overall" over all its matches."""
    by_game: dict[str, dict[str, float]] = defaultdict(dict)
    for game in sorted({m.game for m in matches}):
        for agent, mean in _mean_scores([m for m in matches if m.game == game]).items():
            by_game[agent][game] = mean
    for agent, mean in _mean_scores(matches).items():
        by_game[agent]["overall"] = mean
    return dict(by_game)


def pair_counts(matches: Sequence[MatchResult]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for m in matches:
        for a in set(m.agents):
            for b in set(m.agents):
                if a != b:
                    counts[a][b] += 1
    return {a: dict(row) for a, row in counts.items()}
