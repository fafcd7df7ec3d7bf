"""Time to the goal with censored rounds kept: Kaplan-Meier curves and log-rank tests (pure: scipy, no Django).

A round that reached the game's goal (the treasure was found) is an *event* at its time or turn count; a
round that ended without it (the turn cap) is *right-censored* there: all we know is that the goal was not
reached by then. Dropping such rounds, or counting them as if the goal had been reached at the cap, makes a
condition that often misses the goal look better than it is; the Kaplan-Meier estimate keeps them at risk up
to their end and no further.

The estimates come from ``scipy.stats.ecdf`` on ``scipy.stats.CensoredData`` (its survival function is the
Kaplan-Meier estimator) and the tests from ``scipy.stats.logrank``; nothing here re-derives them. scipy's
log-rank test compares two samples, so with more than two conditions every pair is tested, unadjusted for
multiple comparisons (the table's note says so).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scipy import stats

Observation = tuple[float, bool]  # (time or count at the round's end, goal reached)


@dataclass(frozen=True)
class Curve:
    """One condition's Kaplan-Meier survival curve: P(goal not yet reached) after each distinct time."""

    n: int
    events: int  # rounds that reached the goal
    censored: int  # rounds that ended without it
    times: tuple[float, ...]  # every distinct time with an event or a censoring, ascending
    survival: tuple[float, ...]  # the estimate just after each of those times
    at_risk: tuple[int, ...]  # rounds still going just before each time
    events_at: tuple[int, ...]
    censored_at: tuple[int, ...]

    @property
    def median(self) -> float | None:
        """The first time the estimate drops to one half or below; None when it never does (too few events)."""
        for t, s in zip(self.times, self.survival, strict=True):
            if s <= 0.5:
                return t
        return None


@dataclass(frozen=True)
class LogRank:
    group_a: str
    group_b: str
    statistic: float
    p: float


def censored_data(observations: Sequence[Observation]) -> stats.CensoredData:
    from scipy import stats  # here: scipy takes 0.6 s to import
    return stats.CensoredData(
        uncensored=[t for t, reached in observations if reached],
        right=[t for t, reached in observations if not reached],
    )


def kaplan_meier(observations: Sequence[Observation]) -> Curve | None:
    """The curve of one condition's rounds, or None without any."""
    from scipy import stats  # here: scipy takes 0.6 s to import
    if not observations:
        return None
    times = sorted({t for t, _ in observations})
    estimate = stats.ecdf(censored_data(observations)).sf
    survival = [float(v) for v in estimate.evaluate(times)]
    return Curve(
        n=len(observations),
        events=sum(1 for _, reached in observations if reached),
        censored=sum(1 for _, reached in observations if not reached),
        times=tuple(times),
        survival=tuple(survival),
        at_risk=tuple(sum(1 for u, _ in observations if u >= t) for t in times),
        events_at=tuple(sum(1 for u, reached in observations if u == t and reached) for t in times),
        censored_at=tuple(sum(1 for u, reached in observations if u == t and not reached) for t in times),
    )


def log_rank_pairs(groups: Mapping[str, Sequence[Observation]]) -> list[LogRank]:
    """scipy's two-sided log-rank test for every pair of conditions that both have rounds and some event.

    With no event in either sample the statistic is undefined, so such pairs are left out (the caller notes
    it)."""
    from scipy import stats  # here: scipy takes 0.6 s to import
    names = [c for c, obs in groups.items() if obs]
    result = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if not any(reached for _, reached in [*groups[a], *groups[b]]):
                continue
            test = stats.logrank(censored_data(groups[a]), censored_data(groups[b]))
            result.append(LogRank(a, b, float(test.statistic), float(test.pvalue)))
    return result
