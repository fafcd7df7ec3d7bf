"""How far apart two agents' ratings are, with a bootstrap interval on the difference itself.

Each agent's interval (``AgentRating.low``/``high``) answers "where does this agent rate", and ratings are centred on
their mean in every resample. When one pair is nearly one-sided (a level that beats the one below it in 399 of 400
matches), the size of that gap swings from resample to resample, the mean moves with it, and every agent's interval
widens by the same shift, even between two agents whose difference the matches pin down closely. Whether B rates
above A is a question about ``B - A``: its interval is read from the same resamples as the agents' intervals, where
the shared shift cancels.

A pair whose lower agent came out ahead in only a few matches (``one_sided``) is the case that widens them: a
resample drawing none of those matches leaves the pair's gap to the regularisation alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .bootstrap import scope_fits
from .report import RatingConfig
from .results import MatchResult, RatingInputError

# Fewer matches than this won by the lower agent, and the bootstrap often draws none of them: with 5, about e^-5 (under
# 1%) of resamples do.
FEW_UPSETS = 5


@dataclass(frozen=True)
class RatingDifference:
    lower: str  # the agent expected to rate lower
    higher: str
    difference: float  # mean over the resamples of rating(higher) - rating(lower)
    low: float
    high: float
    upsets: int = 0  # matches in which ``lower`` came out ahead of ``higher`` in their counted comparisons
    compared: int = 0  # matches in which the two were compared at all

    @property
    def apart(self) -> bool:
        """Whether the interval lies wholly above zero: ``higher`` rates above ``lower`` at this confidence."""
        return self.low > 0

    @property
    def one_sided(self) -> bool:
        """Whether ``lower`` won too few of their matches for the resamples to bound the gap by the matches alone."""
        return self.compared > 0 and self.upsets < FEW_UPSETS


def rating_differences(
    matches: Sequence[MatchResult], pairs: Sequence[tuple[str, str]], config: RatingConfig | None = None
) -> list[RatingDifference]:
    """For each (lower, higher) pair, rating(higher) - rating(lower) in one game's scope, with its interval at
    ``config.interval`` over the same resamples (same seed, same stream) as that game's ratings from ``rate``."""
    config = config or RatingConfig()
    games = {m.game for m in matches}
    if len(games) != 1:
        raise RatingInputError(f"rating differences are read in one game's scope, got {sorted(games) or 'none'}")
    (game,) = games
    fits = scope_fits(game, matches, np.ones(len(matches)), config)
    tail = (1.0 - config.interval) / 2 * 100
    result = []
    for lower, higher in pairs:
        if lower not in fits.agents or higher not in fits.agents:
            raise RatingInputError(f"{lower} or {higher} is not rated in {game}")
        i, j, k = fits.agents.index(lower), fits.agents.index(higher), len(fits.agents)
        spread = fits.samples[:, j] - fits.samples[:, i]
        low, high = np.percentile(spread, [tail, 100 - tail])
        lower_won, higher_won = fits.rows[:, i * k + j], fits.rows[:, j * k + i]  # per match (comparison_matrix)
        result.append(RatingDifference(lower, higher, float(spread.mean()), float(low), float(high),
                                       upsets=int((lower_won > higher_won).sum()),
                                       compared=int((lower_won + higher_won > 0).sum())))
    return result
