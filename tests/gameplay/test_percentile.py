"""The one percentile of every benchmark and report (gameplay.bench.measures): nearest rank, a measured value."""

import pytest

from gameplay.bench.measures import percentile, percentiles


def test_nearest_rank_gives_a_measured_value():
    values = list(range(1, 21))  # 1..20
    assert percentile(values, 95) == 19  # rank ceil(0.95 * 20) = 19
    assert percentile(values, 100) == 20 and percentile(values, 5) == 1
    assert percentile([4, 1, 3, 2], 50) == 2  # sorted first; rank ceil(0.5 * 4) = 2
    assert percentile([7.5], 99) == 7.5


def test_no_samples():
    with pytest.raises(ValueError):
        percentile([], 95)
    assert percentiles([]) == {"count": 0, "p50": None, "p90": None, "p95": None, "p99": None, "max": None}
    assert percentiles([10.04, 20.0])["p50"] == 10.0
