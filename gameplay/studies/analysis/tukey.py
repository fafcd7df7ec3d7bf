"""Tukey's HSD post-hoc comparisons, as one row per pair of groups (scipy.stats.tukey_hsd underneath).

Pure: no Django. Uses the same eligible groups as the ANOVA (at least two values each), so the two tables
always describe the same data.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .anova import eligible, mean

CONFIDENCE = 0.95


@dataclass(frozen=True)
class TukeyPair:
    group_a: str
    group_b: str
    n_a: int
    n_b: int
    mean_a: float
    mean_b: float
    mean_diff: float  # mean_a - mean_b
    p: float | None  # None when undefined (no within-group variance)
    ci_low: float | None
    ci_high: float | None


def tukey_pairs(groups: Mapping[str, Sequence[float]], confidence: float = CONFIDENCE) -> list[TukeyPair]:
    """Every unordered pair (a before b in the caller's order); empty if fewer than two eligible groups."""
    from scipy import stats  # here: scipy takes 0.6 s to import
    kept = eligible(groups)
    if len(kept) < 2:
        return []
    names, arrays = list(kept), list(kept.values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zero variance divides by zero: reported as blanks, not warnings
        result = stats.tukey_hsd(*arrays)
        interval = result.confidence_interval(confidence_level=confidence)
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pairs.append(
                TukeyPair(
                    group_a=names[i],
                    group_b=names[j],
                    n_a=len(arrays[i]),
                    n_b=len(arrays[j]),
                    mean_a=mean(arrays[i]),
                    mean_b=mean(arrays[j]),
                    mean_diff=float(result.statistic[i, j]),
                    p=_finite(result.pvalue[i, j]),
                    ci_low=_finite(interval.low[i, j]),
                    ci_high=_finite(interval.high[i, j]),
                )
            )
    return pairs


def _finite(value) -> float | None:
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value
