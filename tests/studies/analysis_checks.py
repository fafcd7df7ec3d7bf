"""Recomputing an exported bundle's statistics with scipy from its CSVs alone (shared by the analysis tests)."""

from __future__ import annotations

import csv
import io
import math
import statistics
from collections import defaultdict

from django.core.management import call_command
from scipy import stats

TOL = 1e-9


def read_csv(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def counted_rows(rounds: list[dict]) -> list[dict]:
    """The README's rule, applied independently: completed, played as assigned, each match once (the lowest
    participant id's row)."""
    kept, seen = [], set()
    for row in sorted(rounds, key=lambda r: int(r["participant"][1:])):
        if row["completed"] == "1" and row["as_assigned"] == "1" and row["match_id"] not in seen:
            seen.add(row["match_id"])
            kept.append(row)
    return kept


def per_round_groups(rows: list[dict], column: str, k: int, conditions: list[str]) -> dict[str, list[float]]:
    groups = {c: [float(r[column]) for r in rows if r["condition"] == c and r["round"] == str(k)] for c in conditions}
    return {c: v for c, v in groups.items() if len(v) >= 2}


def per_participant_groups(rounds: list[dict], column: str, conditions: list[str]) -> dict[str, list[float]]:
    values = defaultdict(list)
    for row in rounds:
        if row["completed"] == "1" and row["as_assigned"] == "1":
            values[(row["condition"], row["participant"])].append(float(row[column]))
    groups = {c: [statistics.fmean(v) for (cond, _), v in values.items() if cond == c] for c in conditions}
    return {c: v for c, v in groups.items() if len(v) >= 2}


def close(text: str, expected: float) -> bool:
    """The CSV's cell equals scipy's value; scipy's nan (no variance) is a blank cell in the bundle."""
    if math.isnan(float(expected)):
        return text == ""
    return abs(float(text) - float(expected)) <= TOL


def check_anova_and_tukey(out, column: str, conditions: list[str], rounds: int) -> int:
    """Recompute every ANOVA and Tukey row of one rounds.csv column with scipy; returns the pairs checked."""
    rows = read_csv(out / "rounds.csv")
    kept = counted_rows(rows)
    assert [r["in_analysis"] == "1" for r in rows] == [r in kept for r in rows]
    anova = {(r["measure"], r["round"]): r for r in read_csv(out / "anova.csv")}
    tukey = {(r["measure"], r["round"], r["group_a"], r["group_b"]): r for r in read_csv(out / "tukey.csv")}
    checked = 0
    cases = [(str(k), per_round_groups(kept, column, k, conditions)) for k in range(1, rounds + 1)]
    cases.append(("all", per_participant_groups(rows, column, conditions)))
    for label, groups in cases:
        row = anova[(column, label)]
        assert len(groups) >= 2, "the study has at least two groups of two in every round"
        names, arrays = list(groups), list(groups.values())
        expected = stats.f_oneway(*arrays)
        assert close(row["F"], expected.statistic) and close(row["p"], expected.pvalue), (column, label)
        assert row["groups_compared"] == ";".join(names)
        assert int(row["df_between"]) == len(arrays) - 1
        assert int(row["df_within"]) == sum(map(len, arrays)) - len(arrays)
        for name, values in groups.items():
            assert int(row[f"n_{name}"]) == len(values) and close(row[f"mean_{name}"], statistics.fmean(values))
        grand = statistics.fmean([v for a in arrays for v in a])
        ss_total = sum((v - grand) ** 2 for a in arrays for v in a)
        ss_between = sum(len(a) * (statistics.fmean(a) - grand) ** 2 for a in arrays)
        assert close(row["eta_squared"], ss_between / ss_total if ss_total else math.nan)
        post_hoc = stats.tukey_hsd(*arrays)
        interval = post_hoc.confidence_interval(0.95)
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                pair = tukey[(column, label, names[i], names[j])]
                assert close(pair["p"], post_hoc.pvalue[i, j]), (column, label, names[i], names[j])
                assert close(pair["mean_diff"], post_hoc.statistic[i, j])
                assert close(pair["ci_low"], interval.low[i, j]) and close(pair["ci_high"], interval.high[i, j])
                checked += 1
    return checked


def check_rates(out, column: str, conditions: list[str], rounds: int) -> None:
    rows = read_csv(out / "rounds.csv")
    kept = counted_rows(rows)
    rates = {(r["measure"], r["round"], r["condition"]): r for r in read_csv(out / "rates.csv")}
    for c in conditions:
        cases = [
            (str(k), [r for r in kept if r["condition"] == c and r["round"] == str(k)]) for k in range(1, rounds + 1)
        ]
        cases.append(("all", [r for r in rows if r["condition"] == c and r["completed"] == r["as_assigned"] == "1"]))
        for label, mine in cases:
            row = rates[(column, label, c)]
            yes = sum(r[column] == "1" for r in mine)
            assert (int(row["n"]), int(row["count"])) == (len(mine), yes), (column, label, c)
            assert close(row["percent"], 100 * yes / len(mine) if mine else math.nan)


def export(build, tmp_path_factory) -> tuple:
    """Build a study and export it once (in a rolled-back atomic, so module fixtures leave no rows behind)."""
    from django.db import transaction

    out = tmp_path_factory.mktemp("export")
    with transaction.atomic():
        study = build()
        printed = io.StringIO()
        call_command("export_study", study.slug, "--out", str(out), stdout=printed)
        transaction.set_rollback(True)
    return out, printed.getvalue()
