"""Rounds that miss the goal: censored, kept, and analysed with the library (Kaplan-Meier, log-rank, Wilson)."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image
from scipy import stats

from gameplay.studies.analysis.report import TIME, Outcome, analyse
from gameplay.studies.analysis.survival import kaplan_meier, log_rank_pairs

TURNS = Outcome("m_turns", "Turns", "turns", "m_turns")
CAP = 200


def _rows() -> list[dict]:
    """Two conditions over one round: 'comm' finds the treasure quickly, 'mute' often hits the cap."""
    comm = [(12, True), (20, True), (31, True), (31, True), (55, True), (CAP, False)]
    mute = [(40, True), (90, True), (CAP, False), (CAP, False), (CAP, False)]
    rows = []
    for condition, outcomes in (("comm", comm), ("mute", mute)):
        for turns, found in outcomes:
            n = len(rows) + 1
            rows.append({
                "participant": f"P{n:04d}", "match_id": n, "condition": condition, "round": 1,
                "completed": "1", "as_assigned": "1", "m_turns": turns, "m_success": "1" if found else "0",
                "time_to_complete_s": turns * 1.5, "censored": "0" if found else "1",
            })
    # Not counted: an aborted round (no completion) and a round played with the fallback agent.
    rows.append({**rows[0], "participant": "P0100", "match_id": 100, "completed": "0", "m_turns": 3})
    rows.append({**rows[0], "participant": "P0101", "match_id": 101, "as_assigned": "0", "m_turns": 4})
    return rows


def _analysis():
    return analyse(
        _rows(), [], conditions=["comm", "mute"], round_count=1, likert_items=[],
        outcomes=[TIME, TURNS], flags=["m_success"], goal="m_success", timed=[TIME, TURNS],
    )


def _data(condition: str) -> stats.CensoredData:
    counted = [r for r in _rows()[:11] if r["condition"] == condition]
    return stats.CensoredData(
        uncensored=[r["m_turns"] for r in counted if r["m_success"] == "1"],
        right=[r["m_turns"] for r in counted if r["m_success"] == "0"],
    )


def test_the_kaplan_meier_table_is_scipys_estimate_with_censored_rounds_kept():
    result = _analysis()
    for condition in ("comm", "mute"):
        mine = [r for r in result.km if r["measure"] == "m_turns" and r["condition"] == condition]
        expected = stats.ecdf(_data(condition)).sf
        assert [r["time"] for r in mine] == sorted(set(expected.quantiles))
        for row in mine:
            assert math.isclose(row["survival"], float(expected.evaluate(row["time"])), abs_tol=1e-12)
        assert sum(r["events"] for r in mine) + sum(r["censored"] for r in mine) == mine[0]["at_risk"]
    mute = [r for r in result.km if r["measure"] == "m_turns" and r["condition"] == "mute"]
    assert mute[-1] == {**mute[-1], "time": CAP, "censored": 3, "events": 0, "at_risk": 3}
    assert mute[-1]["survival"] == pytest.approx(0.6)  # 3 of 5 never found it; nothing is dropped


def test_the_log_rank_row_is_scipys_test_and_says_which_rounds_it_uses():
    (row,) = [r for r in _analysis().logrank if r["measure"] == "m_turns"]
    expected = stats.logrank(_data("comm"), _data("mute"))
    assert (row["group_a"], row["group_b"], row["n_a"], row["goal_a"], row["n_b"], row["goal_b"]) == (
        "comm", "mute", 6, 5, 5, 2
    )
    assert math.isclose(row["p"], float(expected.pvalue)) and math.isclose(row["statistic"], float(expected.statistic))
    assert row["median_a"] == 31 and row["median_b"] is None  # mute never drops to one half
    assert "censored at their end, not dropped" in row["note"]


def test_time_to_complete_is_analysed_as_a_time_to_the_goal_too():
    result = _analysis()
    assert {r["measure"] for r in result.logrank} == {"m_turns", "time_to_complete_s"}
    assert {"km_m_turns_round1.png", "km_time_round1.png"} <= set(result.figures)
    image = Image.open(io.BytesIO(result.figures["km_m_turns_round1.png"]))
    assert image.format == "PNG" and image.width >= 600


def test_the_anova_note_counts_the_censored_rounds_it_uses_at_the_cap():
    anova = {(r["measure"], r["round"]): r for r in _analysis().anova}
    assert "4 of these rounds missed the goal" in anova[("m_turns", "1")]["note"]
    assert anova[("m_turns", "1")]["n_mute"] == 5  # capped rounds are in the ANOVA, at the cap


def test_success_rates_carry_the_wilson_interval_from_scipy():
    rates = {(r["round"], r["condition"]): r for r in _analysis().rates if r["measure"] == "m_success"}
    mute = rates[("1", "mute")]
    interval = stats.binomtest(2, 5).proportion_ci(method="wilson")
    assert (mute["n"], mute["count"]) == (5, 2)
    assert math.isclose(mute["ci_low"], interval.low) and math.isclose(mute["ci_high"], interval.high)


def test_no_goal_no_time_to_goal_tables():
    result = analyse(_rows(), [], conditions=["comm", "mute"], round_count=1, likert_items=[], outcomes=[TURNS])
    assert list(result.km) == [] and list(result.logrank) == []
    assert not [name for name in result.figures if name.startswith("km_")]


def test_pairs_without_any_goal_are_not_tested_and_a_lone_curve_still_draws():
    never = [(CAP, False)] * 3
    assert log_rank_pairs({"a": never, "b": never}) == []
    curve = kaplan_meier(never)
    assert curve.survival == (1.0,) and curve.median is None and curve.censored == 3
