"""The analysis functions against hand-computed examples, and the acceptance checks: the statistics in the
exported bundle equal scipy's, recomputed here from the exported CSVs alone, for a Gnomes at Night study
(cooperative, declares turns, wall hits and success). The Santorini study is test_analysis_santorini.py."""

from __future__ import annotations

import io
import math
import statistics
import zipfile

import pytest
from PIL import Image
from scipy import stats

from gameplay.studies.analysis import Outcome, box_plot, box_stats, kruskal_wallis, one_way_anova, tukey_pairs
from gameplay.studies.analysis.boxplots import nice_ticks, quantile
from gameplay.studies.analysis.report import BASE_OUTCOMES, analyse, analysis_flags
from gameplay.studies.models import Participant
from tests.studies.analysis_checks import check_anova_and_tukey, check_rates, close, export, read_csv
from tests.studies.factories import CONDITIONS, build_study

# pytest-django sets up the test database only when a collected test is marked: the module-scoped export
# fixtures need it even when this file runs alone.
pytestmark = pytest.mark.django_db
CONDITION_KEYS = [key for key, *_ in CONDITIONS]
TOL = 1e-9
Step = Participant.Step


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


def test_tukey_without_within_group_variance_leaves_equal_means_blank():
    # Every Gnomes round that runs out of turns scores the cap: constant groups with different means. The ANOVA's
    # F is then inf, and Tukey's standard error is zero: two groups with the same mean have an undefined p (0/0,
    # blank in tukey.csv), two with different means p = 0 and an interval of zero width.
    groups = {"comm": [30, 30], "llm": [30, 30], "mute": [17, 17]}
    assert one_way_anova(groups).f == math.inf
    same, *different = tukey_pairs(groups)
    assert (same.group_a, same.group_b, same.mean_diff, same.p) == ("comm", "llm", 0.0, None)
    assert [(p.mean_diff, p.p, p.ci_low, p.ci_high) for p in different] == [(13.0, 0.0, 13.0, 13.0)] * 2


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
        {"participant": "P0002", "match_id": 1, "completed": 1, "as_assigned": 1},  # same match as P0001's
        {"participant": "P0001", "match_id": 1, "completed": 1, "as_assigned": 1},
        {"participant": "P0003", "match_id": 2, "completed": 0, "as_assigned": 1},
        {"participant": "P0004", "match_id": 3, "completed": 1, "as_assigned": 0},
        {"participant": "P0005", "match_id": 4, "completed": True, "as_assigned": True},
    ]
    assert analysis_flags(rows) == [False, True, False, False, True]


def shape_rows() -> list[dict]:
    rows = [
        {
            "participant": f"P{i:04d}",
            "completed": 1,
            "as_assigned": 1,
            "condition": c,
            "round": k,
            "time_to_complete_s": 10.0 + i,
            "actions": 5 + i % 3 + k,
            "score": float(i % 2),
            "won": i % 2,
            "m_turns": 3 + i % 4,
            "m_found": "1" if i % 3 else "0",
        }
        for i, c in enumerate(["a", "a", "b", "b", "a", "b"], start=1)
        for k in (1, 2)
    ]
    for i, row in enumerate(rows):
        row["match_id"] = i  # one match per row here
    return rows


def test_analyse_shapes():
    answers = [{"condition": c, "item_key": "fun", "value": v} for c, v in [("a", 1), ("a", 2), ("b", 4), ("b", 5)]]
    turns = Outcome("m_turns", "Turns", "turns", "m_turns")
    result = analyse(
        shape_rows(),
        answers,
        conditions=["a", "b"],
        round_count=2,
        likert_items=["fun"],
        outcomes=[*BASE_OUTCOMES, turns],
        flags=["won", "m_found"],
    )
    columns = ["time_to_complete_s", "actions", "score", "m_turns"]
    assert [(r["measure"], r["round"]) for r in result.anova] == [(c, r) for c in columns for r in ("1", "2", "all")]
    assert len(result.tukey) == 4 * 3 and len(result.kruskal) == 1
    assert sorted(result.figures) == sorted(
        f"boxplot_{m}_{r}.png" for m in ("time", "actions", "score", "m_turns") for r in ("round1", "round2", "all")
    )
    assert [(r["measure"], r["round"], r["condition"]) for r in result.rates] == [
        (m, k, c) for m in ("won", "m_found") for k in ("1", "2", "all") for c in ("a", "b")
    ]
    won_a_1 = next(r for r in result.rates if (r["measure"], r["round"], r["condition"]) == ("won", "1", "a"))
    # Condition a is participants 1, 2 and 5: won = i % 2 gives 1, 0, 1.
    assert (won_a_1["n"], won_a_1["count"], won_a_1["percent"]) == (3, 2, pytest.approx(200 / 3))


def test_small_groups_and_blank_values_are_named_in_the_notes():
    rows = shape_rows()
    rows.append({**rows[0], "participant": "P0099", "match_id": 99, "condition": "c"})  # one value for c
    rows[2]["m_turns"] = ""  # a counted round 1 the engine reported nothing for
    result = analyse(
        rows,
        [],
        conditions=["a", "b", "c", "d"],
        round_count=2,
        likert_items=["fun"],
        outcomes=[Outcome("m_turns", "Turns", "turns", "m_turns")],
        flags=["m_found"],
    )
    first = result.anova[0]
    assert first["groups_compared"] == "a;b" and first["F"] is not None
    assert (first["n_c"], first["n_d"]) == (1, 0)
    assert "left out with fewer than 2 values: c (n=1), d (n=0)" in first["note"]
    assert "1 counted round without a value left out" in first["note"]
    (fun,) = result.kruskal
    assert fun["n_total"] == "" and "no test" in fun["note"] and "a (n=0)" in fun["note"]
    empty = next(r for r in result.rates if (r["round"], r["condition"]) == ("1", "d"))
    assert (empty["n"], empty["percent"], empty["note"]) == (0, None, "no counted rounds")


# --- acceptance: export_study's numbers equal scipy recomputed from the CSVs -----------------------------------------


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker, tmp_path_factory):
    """The Gnomes at Night factory study, exported once for every acceptance test of this module."""
    with django_db_blocker.unblock():
        return export(build_study, tmp_path_factory)


GNOMES_OUTCOMES = ("time", "actions", "m_turns", "m_wall_hits")  # no score: a cooperative game


def test_the_command_writes_every_file(exported):
    out, printed = exported
    names = sorted(p.name for p in out.iterdir())
    expected = {
        "README.txt",
        "anova.csv",
        "tukey.csv",
        "kruskal.csv",
        "rates.csv",
        "km.csv",
        "logrank.csv",
        "chat.csv",
        "rounds.csv",
        "messages.csv",
        "survey.csv",
        "participants.csv",
        "comprehension.csv",
        "payments.csv",
        "analysis.zip",
    }
    expected |= {f"boxplot_{m}_{r}.png" for m in GNOMES_OUTCOMES for r in ("round1", "round2", "round3", "all")}
    # Gnomes declares a goal (success): times to it get Kaplan-Meier curves per round.
    expected |= {f"km_{m}_{r}.png" for m in ("time", "m_turns") for r in ("round1", "round2", "round3")}
    assert set(names) == expected
    for name in names:
        assert name in printed
    assert "measures: m_turns, m_wall_hits, m_success." in printed
    with zipfile.ZipFile(out / "analysis.zip") as archive:
        inside = {info.filename.split("/", 1)[1]: archive.read(info) for info in archive.infolist()}
    assert set(inside) == expected - {"analysis.zip"}
    for name, data in inside.items():
        assert (out / name).read_bytes() == data, name


@pytest.mark.parametrize("column", ["time_to_complete_s", "actions", "m_turns"])
def test_anova_and_tukey_equal_scipy_recomputed_from_rounds_csv(exported, column):
    out, _ = exported
    assert check_anova_and_tukey(out, column, CONDITION_KEYS, rounds=3) == 12  # 3 pairs in 3 rounds and 'all'


def test_every_numeric_outcome_has_its_rows_and_a_note_where_a_test_is_impossible(exported):
    out, _ = exported
    anova = read_csv(out / "anova.csv")
    assert sorted({r["measure"] for r in anova}) == sorted(["time_to_complete_s", "actions", "m_turns", "m_wall_hits"])
    assert len(anova) == 4 * 4
    for row in anova:
        for c in CONDITION_KEYS:
            assert row[f"n_{c}"] != "", "every group's size is reported"
        if row["F"] == "":
            assert row["note"], row


def test_success_rates_equal_the_counts_in_rounds_csv(exported):
    out, _ = exported
    rates = read_csv(out / "rates.csv")
    assert {r["measure"] for r in rates} == {"m_success"}  # no 'won': the game is cooperative
    assert len(rates) == 3 * 4
    check_rates(out, "m_success", CONDITION_KEYS, rounds=3)
    mute_last = next(r for r in rates if (r["round"], r["condition"]) == ("3", "A-Mute"))
    assert (mute_last["n"], mute_last["count"]) == ("4", "3")  # one ran out of turns


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
    assert len(pngs) == 4 * 4
    for path in pngs:
        with Image.open(path) as image:
            image.verify()
            assert image.format == "PNG"
