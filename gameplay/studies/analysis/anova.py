"""One-way ANOVA over groups of numbers, with eta squared and the group sizes.

Pure: no Django. scipy computes F and p; eta squared (SS_between / SS_total) is computed here because
scipy does not report it, and because writing it out makes the definition explicit in the bundle.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_GROUP_SIZE = 2  # a group of one has no within-group variance to contribute


@dataclass(frozen=True)
class AnovaResult:
    groups: tuple[str, ...]  # the groups compared, in the caller's order
    n: dict[str, int]
    means: dict[str, float]
    sds: dict[str, float]  # sample standard deviations (ddof=1)
    f: float | None  # None when undefined (no variance at all)
    p: float | None
    df_between: int
    df_within: int
    eta_squared: float | None

    @property
    def n_total(self) -> int:
        return sum(self.n.values())


def eligible(groups: Mapping[str, Sequence[float]], min_size: int = MIN_GROUP_SIZE) -> dict[str, list[float]]:
    """The groups with at least ``min_size`` values, order kept."""
    return {name: [float(v) for v in values] for name, values in groups.items() if len(values) >= min_size}


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def sample_sd(values: Sequence[float]) -> float:
    if len(values) < 2:
        return float("nan")
    m = mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (len(values) - 1))


def eta_squared(groups: Sequence[Sequence[float]]) -> float | None:
    """SS_between / SS_total; None when every value is the same (0 / 0)."""
    values = [v for g in groups for v in g]
    grand = mean(values)
    ss_total = math.fsum((v - grand) ** 2 for v in values)
    if ss_total == 0:
        return None
    ss_between = math.fsum(len(g) * (mean(g) - grand) ** 2 for g in groups)
    return ss_between / ss_total


def one_way_anova(groups: Mapping[str, Sequence[float]]) -> AnovaResult | None:
    """ANOVA over the groups with at least two values; None if fewer than two such groups remain."""
    from scipy import stats  # here: scipy takes 0.6 s to import
    kept = eligible(groups)
    if len(kept) < 2:
        return None
    arrays = list(kept.values())
    with warnings.catch_warnings():
        # Constant input makes scipy warn and return nan or inf; the caller sees that in the result instead.
        warnings.simplefilter("ignore")
        result = stats.f_oneway(*arrays)
    n_total = sum(len(a) for a in arrays)
    return AnovaResult(
        groups=tuple(kept),
        n={k: len(v) for k, v in kept.items()},
        means={k: mean(v) for k, v in kept.items()},
        sds={k: sample_sd(v) for k, v in kept.items()},
        f=_finite_or_none(result.statistic, allow_inf=True),
        p=_finite_or_none(result.pvalue),
        df_between=len(arrays) - 1,
        df_within=n_total - len(arrays),
        eta_squared=eta_squared(arrays),
    )


def _finite_or_none(value, allow_inf: bool = False) -> float | None:
    value = float(value)
    if math.isnan(value) or (math.isinf(value) and not allow_inf):
        return None
    return value
