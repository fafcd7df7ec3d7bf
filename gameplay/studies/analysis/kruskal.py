"""Kruskal-Wallis H test with epsilon squared, for ordinal answers such as Likert items.

Pure: no Django. Epsilon squared is H / (n - 1) (Tomczak & Tomczak 2014: H / ((n^2 - 1) / (n + 1))),
the rank-based analogue of eta squared.
"""

from __future__ import annotations

import math
import statistics
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .anova import eligible, mean


@dataclass(frozen=True)
class KruskalResult:
    groups: tuple[str, ...]
    n: dict[str, int]
    medians: dict[str, float]
    means: dict[str, float]
    h: float | None  # None when every answer is the same (ranks carry no information)
    p: float | None
    df: int
    epsilon_squared: float | None

    @property
    def n_total(self) -> int:
        return sum(self.n.values())


def epsilon_squared(h: float, n_total: int) -> float:
    return h / (n_total - 1)


def kruskal_wallis(groups: Mapping[str, Sequence[float]]) -> KruskalResult | None:
    """The test over groups with at least two values; None if fewer than two such groups remain."""
    from scipy import stats  # here: scipy takes 0.6 s to import
    kept = eligible(groups)
    if len(kept) < 2:
        return None
    arrays = list(kept.values())
    n_total = sum(len(a) for a in arrays)
    h = p = None
    if len({v for a in arrays for v in a}) > 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = stats.kruskal(*arrays)
        if not math.isnan(result.statistic):
            h, p = float(result.statistic), float(result.pvalue)
    return KruskalResult(
        groups=tuple(kept),
        n={k: len(v) for k, v in kept.items()},
        medians={k: float(statistics.median(v)) for k, v in kept.items()},
        means={k: mean(v) for k, v in kept.items()},
        h=h,
        p=p,
        df=len(arrays) - 1,
        epsilon_squared=epsilon_squared(h, n_total) if h is not None else None,
    )
