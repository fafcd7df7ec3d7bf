"""The analysis functions against hand-computed examples, and the acceptance check: the statistics in the
exported bundle equal scipy's, recomputed here from the exported CSVs alone."""

from __future__ import annotations

import csv
import io
import math
import statistics
import zipfile
from collections import defaultdict

import pytest
from django.core.management import call_command
from PIL import Image
from scipy import stats

from gameplay.studies.analysis import box_plot, box_stats, kruskal_wallis, one_way_anova, tukey_pairs
from gameplay.studies.analysis.boxplots import nice_ticks, quantile
from gameplay.studies.analysis.report import analyse, analysis_flags
from tests.studies.factories import CONDITIONS, build_study

CONDITION_KEYS = [key for key, *_ in CONDITIONS]
TOL = 1e-9


# --- pure functions, small examples worked by hand -----------------------------------------------------------------


def test_anova_by_hand():
    # Means 2 and 5, grand mean 3.5: SS_between = 6 * 1.5^2 = 13.5, SS_within = 2 + 2 = 4, df = (1, 4).
    result = one_way_anova({"a": [1, 2, 3], "b": [4, 5, 6]})
    assert result.f == pytest.approx(13.5, abs=TOL)
    assert (result.df_between, result.df_within) == (1, 4)
    assert result.eta_squared == pytest.approx(13.5 / 17.5, abs=TOL)
    assert result.p == pytest.approx(stats.f.sf(13.5, 1, 4), abs=TOL)
    assert result.n == {"a": 3, "b": 3} and result.means == {"a": 2.0, "b": 5.0}
    assert result.sds == {"a": 1.0, "b": 1.0}


def test_anova_skips_small_groups_and_needs_two():
    result = one_way_anova({"a": [1, 2, 3], "single": [9], "b": [4, 5, 6], "empty": []})
    assert result.groups == ("a", "b") and result.n_total == 6
    assert one_way_anova({"a": [1, 2], "b": [3]}) is None


def test_anova_without_any_variance_is_blank_not_an_error():
    result = one_way_anova({"a": [2, 2], "b": [2, 2]})
    assert result.f is None and result.p is None and result.eta_squared is None
    constant_groups = one_way_anova({"a": [1, 1], "b": [3, 3]})  # all variance is between groups
    assert constant_groups.f == math.inf and constant_groups.eta_squared == 1.0


def test_tukey_with_two_groups_is_the_pooled_t_test():
    a, b = [1, 2, 3], [4, 5, 7]
    (pair,) = tukey_pairs({"a": a, "b": b})
    assert (pair.group_a, pair.group_b, pair.n_a, pair.n_b) == ("a", "b", 3, 3)
    assert pair.mean_diff == pytest.approx(2 - 16 / 3, abs=TOL)
    # With two groups the studentized range is sqrt(2)|t|: the same p and interval as a pooled t-test.
    assert pair.p == pytest.approx(stats.ttest_ind(a, b).pvalue, abs=1e-6)
    pooled_se = math.sqrt(((1 + 7 / 3) / 2) * (1 / 3 + 1 / 3))  # variances 1 and 7/3
    half = stats.t.ppf(0.975, 4) * pooled_se
    assert pair.ci_low == pytest.approx(pair.mean_diff - half, abs=1e-6)
    assert pair.ci_high == pytest.approx(pair.mean_diff + half, abs=1e-6)


def test_tukey_lists_every_pair_once_in_order():
    pairs = tukey_pairs({"x": [1, 2, 3], "y": [2, 3, 5], "z": [7, 8, 8.5], "tiny": [1]})
    assert [(p.group_a, p.group_b) for p in pairs] == [("x", "y"), ("x", "z"), ("y", "z")]
    assert tukey_pairs({"x": [1, 2]}) == []


def test_kruskal_by_hand():
    # No ties: rank sums 6 and 15 over n = 6. H = 12 / (6 * 7) * (36 / 3 + 225 / 3) - 3 * 7 = 27 / 7.
    result = kruskal_wallis({"a": [1, 2, 3], "b": [4, 5, 6]})
    assert result.h == pytest.approx(27 / 7, abs=TOL)
    assert result.epsilon_squared == pytest.approx(27 / 7 / 5, abs=TOL)
    assert result.p == pytest.approx(stats.chi2.sf(27 / 7, 1), abs=TOL)
    assert result.df == 1 and result.n == {"a": 3, "b": 3} and result.medians == {"a": 2.0, "b": 5.0}


def test_kruskal_with_identical_answers_is_blank():
    result = kruskal_wallis({"a": [3, 3], "b": [3, 3, 3]})
    assert result.h is None and result.p is None and result.epsilon_squared is None
    assert kruskal_wallis({"a": [3, 4], "b": [5]}) is None


def test_box_stats_by_hand():
    s = box_stats([4, 1, 100, 3, 2])
    assert (s.n, s.q1, s.median, s.q3) == (5, 2.0, 3.0, 4.0)
    # IQR 2: the fences are -1 and 7, so 100 is an outlier and the upper whisker stops at 4.
    assert (s.whisker_low, s.whisker_high, s.outliers) == (1.0, 4.0, (100.0,))
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.25) == 1.75  # numpy.percentile's linear interpolation
    assert box_stats([]) is None


def test_nice_ticks_cover_the_range():
    ticks = nice_ticks(0, 23)
    assert ticks[0] <= 0 and ticks[-1] >= 23 and len(ticks) <= 7
    assert nice_ticks(5, 5)  # a single value still gets an axis


def test_box_plot_is_a_png_with_empty_groups_allowed():
    png = box_plot([("H", [1, 2, 3, 30]), ("A-Comm", [4]), ("A-Mute", [])], title="Turns", y_label="turns")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width >= 520


def test_analysis_flags_rules():
    rows = [
        {"participant": "P0002", "match_id": 1, "finished": 1, "as_assigned": 1},  # same match as P0001's
        {"participant": "P0001", "match_id": 1, "finished": 1, "as_assigned": 1},
        {"participant": "P0003", "match_id": 2, "finished": 0, "as_assigned": 1},
        {"participant": "P0004", "match_id": 3, "finished": 1, "as_assigned": 0},
        {"participant": "P0005", "match_id": 4, "finished": True, "as_assigned": True},
    ]
    assert analysis_flags(rows) == [False, True, False, False, True]


def test_analyse_shapes():
    rows = [
        {
            "participant": f"P{i:04d}",
            "match_id": i,
            "finished": 1,
            "as_assigned": 1,
            "condition": c,
            "round": k,
            "turns": 5 + i % 3 + k,
            "time_to_complete_s": 10.0 + i,
        }
        for i, c in enumerate(["a", "a", "b", "b", "a", "b"], start=1)
        for k in (1, 2)
    ]
    for i, row in enumerate(rows):
        row["match_id"] = i  # one match per row here
    answers = [{"condition": c, "item_key": "fun", "value": v} for c, v in [("a", 1), ("a", 2), ("b", 4), ("b", 5)]]
    result = analyse(rows, answers, conditions=["a", "b"], round_count=2, likert_items=["fun"])
    assert [(r["measure"], r["round"]) for r in result.anova] == [
        ("turns", "1"),
        ("turns", "2"),
        ("turns", "all"),
        ("time_s", "1"),
        ("time_s", "2"),
        ("time_s", "all"),
    ]
    assert len(result.tukey) == 6 and len(result.kruskal) == 1
    assert sorted(result.figures) == sorted(
        f"boxplot_{m}_{r}.png" for m in ("turns", "time") for r in ("round1", "round2", "all")
    )


# --- acceptance: export_study's numbers equal scipy recomputed from the CSVs -----------------------------------------


def read_csv(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def counted_rows(rounds: list[dict]) -> list[dict]:
    """The README's rule, applied independently: treasure found, partner as assigned, each match once
    (the lowest participant id's row)."""
    kept, seen = [], set()
    for row in sorted(rounds, key=lambda r: int(r["participant"][1:])):
        if row["finished"] == "1" and row["as_assigned"] == "1" and row["match_id"] not in seen:
            seen.add(row["match_id"])
            kept.append(row)
    return kept


def per_round_groups(rows: list[dict], column: str, k: int) -> dict[str, list[float]]:
    groups = {
        c: [float(r[column]) for r in rows if r["condition"] == c and r["round"] == str(k)] for c in CONDITION_KEYS
    }
    return {c: v for c, v in groups.items() if len(v) >= 2}


def per_participant_groups(rounds: list[dict], column: str) -> dict[str, list[float]]:
    values = defaultdict(list)
    for row in rounds:
        if row["finished"] == "1" and row["as_assigned"] == "1":
            values[(row["condition"], row["participant"])].append(float(row[column]))
    groups = {c: [statistics.fmean(v) for (cond, _), v in values.items() if cond == c] for c in CONDITION_KEYS}
    return {c: v for c, v in groups.items() if len(v) >= 2}


def close(text: str, expected: float) -> bool:
    return abs(float(text) - float(expected)) <= TOL


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker, tmp_path_factory):
    """One study, exported once for every acceptance test of this module (built in a rolled-back atomic)."""
    from django.db import transaction

    out = tmp_path_factory.mktemp("export")
    with django_db_blocker.unblock(), transaction.atomic():
        study = build_study()
        printed = io.StringIO()
        call_command("export_study", study.slug, "--out", str(out), stdout=printed)
        transaction.set_rollback(True)
    return out, printed.getvalue()


def test_the_command_writes_every_file(exported):
    out, printed = exported
    names = sorted(p.name for p in out.iterdir())
    expected = {
        "README.txt",
        "anova.csv",
        "tukey.csv",
        "kruskal.csv",
        "rounds.csv",
        "messages.csv",
        "survey.csv",
        "participants.csv",
        "analysis.zip",
    }
    expected |= {f"boxplot_{m}_{r}.png" for m in ("turns", "time") for r in ("round1", "round2", "round3", "all")}
    assert set(names) == expected
    for name in names:
        assert name in printed
    with zipfile.ZipFile(out / "analysis.zip") as archive:
        inside = {info.filename.split("/", 1)[1]: archive.read(info) for info in archive.infolist()}
    assert set(inside) == expected - {"analysis.zip"}
    for name, data in inside.items():
        assert (out / name).read_bytes() == data, name


@pytest.mark.parametrize("measure,column", [("turns", "turns"), ("time_s", "time_to_complete_s")])
def test_anova_and_tukey_equal_scipy_recomputed_from_rounds_csv(exported, measure, column):
    out, _ = exported
    rounds = read_csv(out / "rounds.csv")
    kept = counted_rows(rounds)
    assert [r["in_analysis"] == "1" for r in rounds] == [r in kept for r in rounds]
    anova = {(r["measure"], r["round"]): r for r in read_csv(out / "anova.csv")}
    tukey = {(r["measure"], r["round"], r["group_a"], r["group_b"]): r for r in read_csv(out / "tukey.csv")}
    checked = 0
    cases = [(str(k), per_round_groups(kept, column, k)) for k in (1, 2, 3)]
    cases.append(("all", per_participant_groups(rounds, column)))
    for label, groups in cases:
        row = anova[(measure, label)]
        assert len(groups) >= 2, "the factory study has at least two groups of two in every round"
        names, arrays = list(groups), list(groups.values())
        expected = stats.f_oneway(*arrays)
        assert close(row["F"], expected.statistic) and close(row["p"], expected.pvalue), (measure, label)
        assert row["groups_compared"] == ";".join(names)
        assert int(row["df_between"]) == len(arrays) - 1
        assert int(row["df_within"]) == sum(map(len, arrays)) - len(arrays)
        for name, values in groups.items():
            assert int(row[f"n_{name}"]) == len(values) and close(row[f"mean_{name}"], statistics.fmean(values))
        grand = statistics.fmean([v for a in arrays for v in a])
        ss_total = sum((v - grand) ** 2 for a in arrays for v in a)
        ss_between = sum(len(a) * (statistics.fmean(a) - grand) ** 2 for a in arrays)
        assert close(row["eta_squared"], ss_between / ss_total)
        post_hoc = stats.tukey_hsd(*arrays)
        interval = post_hoc.confidence_interval(0.95)
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                pair = tukey[(measure, label, names[i], names[j])]
                assert close(pair["p"], post_hoc.pvalue[i, j]), (measure, label, names[i], names[j])
                assert close(pair["mean_diff"], post_hoc.statistic[i, j])
                assert close(pair["ci_low"], interval.low[i, j]) and close(pair["ci_high"], interval.high[i, j])
                checked += 1
    assert checked == 12


def test_kruskal_equals_scipy_recomputed_from_survey_csv(exported):
    out, _ = exported
    answers = read_csv(out / "survey.csv")
    rows = {r["measure"]: r for r in read_csv(out / "kruskal.csv")}
    assert set(rows) == {"engagement", "satisfaction"}
    for item, row in rows.items():
        groups = {
            c: [float(a["value"]) for a in answers if a["item_key"] == item and a["condition"] == c]
            for c in CONDITION_KEYS
        }
        expected = stats.kruskal(*groups.values())
        n = sum(map(len, groups.values()))
        assert close(row["H"], expected.statistic) and close(row["p"], expected.pvalue)
        assert close(row["epsilon_squared"], expected.statistic / (n - 1))
        for c, values in groups.items():
            assert int(row[f"n_{c}"]) == len(values) and close(row[f"median_{c}"], statistics.median(values))


def test_box_plots_are_valid_pngs(exported):
    out, _ = exported
    pngs = sorted(out.glob("boxplot_*.png"))
    assert len(pngs) == 8
    for path in pngs:
        with Image.open(path) as image:
            image.verify()
            assert image.format == "PNG"
