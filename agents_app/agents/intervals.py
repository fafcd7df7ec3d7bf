"""95% confidence intervals of a mean over independent seeds: Student's t-interval.

The evaluations and solvers here repeat a measurement over seeds (a solve per solver seed, a round per gnomes_eval
seed) and report its mean; the interval says how far that mean could move with other seeds. Seeds are taken as
independent draws, the mean as roughly normal (the t-interval is exact for normal draws and robust for the small,
bounded samples here): mean +- t(0.975, n-1) * s / sqrt(n), s the sample standard deviation. One seed gives no
interval (None); seeds that all measured the same value give a zero-width one.

Where a seed gives several values (gnomes_eval's rounds of one seed, or the decisions of its rounds), the seeds stay
the independent draws: ``cluster_mean_ci95`` centres the interval on the mean of all values and takes its standard
error from the seeds (the cluster-robust error of a ratio mean, k - 1 degrees of freedom, k seeds). With the same
number of values per seed it is exactly the t-interval of the seeds' means.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats

METHOD = "95% Student t-interval over seeds"


@dataclass(frozen=True)
class MeanCI:
    mean: float
    low: float | None  # None: fewer than two seeds
    high: float | None
    n: int

    def as_dict(self, digits: int = 6) -> dict:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, digits)

        return {"mean": rounded(self.mean), "ci95": [rounded(self.low), rounded(self.high)], "n": self.n}

    def text(self, spec: str = ".4f") -> str:
        """``mean [low, high]``, or the mean and why there is no interval."""
        return describe(self.as_dict(digits=12), spec)


def mean_ci95(values: Sequence[float]) -> MeanCI:
    """The mean of ``values`` (one per seed) and its 95% t-interval."""
    samples = [float(v) for v in values]
    if not samples:
        raise ValueError("no values")
    n = len(samples)
    mean = math.fsum(samples) / n
    if n < 2:
        return MeanCI(mean, None, None, n)
    half = float(stats.t.ppf(0.975, n - 1)) * statistics.stdev(samples) / math.sqrt(n)
    return MeanCI(mean, mean - half, mean + half, n)


def cluster_mean_ci95(groups: Sequence[Sequence[float]]) -> MeanCI:
    """The mean of all values in ``groups`` (one group per seed; a seed may have none, e.g. no finished round) and
    its 95% interval with the seeds as the independent draws."""
    k = len(groups)
    count = sum(len(group) for group in groups)
    if not count:
        raise ValueError("no values")
    mean = math.fsum(math.fsum(group) for group in groups) / count
    if k < 2:
        return MeanCI(mean, None, None, k)
    per_seed = count / k
    residuals = [(math.fsum(group) - mean * len(group)) / per_seed for group in groups]
    error = math.sqrt(math.fsum(r * r for r in residuals) / (k * (k - 1)))
    half = float(stats.t.ppf(0.975, k - 1)) * error
    return MeanCI(mean, mean - half, mean + half, k)


def describe(entry: dict, spec: str = ".4f") -> str:
    """``mean [low, high]`` of a ``MeanCI.as_dict()``, or the mean and why there is no interval."""
    low, high = entry["ci95"]
    if low is None:
        return f"{entry['mean']:{spec}} (no interval: {entry['n']} seed)"
    return f"{entry['mean']:{spec}} [{low:{spec}}, {high:{spec}}]"
