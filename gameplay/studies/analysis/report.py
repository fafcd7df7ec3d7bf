"""The analysis bundle's tables and figures, from the long rows of the data export (pure: no Django).

Rows are the dicts written to rounds.csv and survey.csv, so everything here can be recomputed from the
CSVs alone. Which rounds count (the rules the README states):

* only rounds where the treasure was found (``finished`` = 1): an unfinished round has no time to the
  treasure, and its turn count is a cap or a quit point, not a measure of efficiency;
* only rounds played with the partner the condition prescribes (``as_assigned`` = 1), so a human-partner
  participant who was given the fallback agent after a pairing timeout is not counted as a human pair;
* each match once: in a human-human pair both participants have a row for the same match with the same
  turns and time, and counting both would double the pair's weight (the lower participant id is kept).

"all" pools rounds per participant: the mean of that participant's counted rounds (the pair rule does not
apply there, so the two members of a human pair are both counted, each with their own rounds).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .anova import AnovaResult, mean, one_way_anova
from .boxplots import box_plot
from .kruskal import kruskal_wallis
from .tukey import CONFIDENCE, tukey_pairs

# measure name -> (rounds.csv column, figure title, axis label, file stem)
MEASURES: dict[str, tuple[str, str, str, str]] = {
    "turns": ("turns", "Turns to reach the treasure", "turns", "turns"),
    "time_s": ("time_to_complete_s", "Time to reach the treasure", "seconds", "time"),
}
ALL_ROUNDS = "all"
PER_ROUND_NOTE = "Rounds where the treasure was found, with the partner the condition prescribes; each match once."
PER_PARTICIPANT_NOTE = (
    "Each participant's mean over their rounds where the treasure was found, with the partner the condition prescribes."
)
SURVEY = "survey"

ANOVA_COLUMNS: dict[str, str] = {
    "measure": "turns or time_s (time to the treasure in seconds)",
    "round": "round number (1-based), or 'all' for per-participant means over their counted rounds",
    "groups_compared": "conditions with at least two values, separated by ';' (only these enter the test)",
    "n_total": "values in the test",
    "F": "F statistic (scipy.stats.f_oneway); 'inf' when every group is constant but the means differ",
    "p": "p-value of F",
    "df_between": "groups compared - 1",
    "df_within": "n_total - groups compared",
    "eta_squared": "effect size: SS_between / SS_total",
    "n_<condition>": "values of that condition (including conditions with too few values to be compared)",
    "mean_<condition>": "mean of that condition's values",
    "sd_<condition>": "sample standard deviation (n - 1) of that condition's values",
    "note": "why a statistic is blank, if it is",
}
TUKEY_COLUMNS: dict[str, str] = {
    "measure": "as in anova.csv",
    "round": "as in anova.csv",
    "group_a": "first condition of the pair",
    "group_b": "second condition of the pair",
    "n_a": "values of group_a",
    "n_b": "values of group_b",
    "mean_a": "mean of group_a",
    "mean_b": "mean of group_b",
    "mean_diff": "mean_a - mean_b",
    "p": "Tukey HSD adjusted p-value (scipy.stats.tukey_hsd over all compared groups)",
    "ci_low": f"lower end of the {CONFIDENCE:.0%} simultaneous confidence interval of mean_diff",
    "ci_high": f"upper end of the {CONFIDENCE:.0%} simultaneous confidence interval of mean_diff",
}
KRUSKAL_COLUMNS: dict[str, str] = {
    "measure": "the survey item's key",
    "round": "'survey' (items are asked once, after the rounds)",
    "groups_compared": "conditions with at least two answers, separated by ';'",
    "n_total": "answers in the test",
    "H": "Kruskal-Wallis H statistic, tie-corrected (scipy.stats.kruskal)",
    "p": "p-value of H (chi-squared approximation)",
    "df": "groups compared - 1",
    "epsilon_squared": "effect size: H / (n_total - 1)",
    "n_<condition>": "answers of that condition",
    "median_<condition>": "median answer of that condition",
    "mean_<condition>": "mean answer of that condition",
    "note": "why a statistic is blank, if it is",
}


@dataclass(frozen=True)
class Sample:
    """The values of one measure in one round (or 'all'), per condition in study order."""

    measure: str
    round: str
    groups: dict[str, list[float]]


@dataclass(frozen=True)
class Analysis:
    anova: list[dict]
    tukey: list[dict]
    kruskal: list[dict]
    figures: dict[str, bytes]  # file name -> PNG


def analysis_flags(rows: Sequence[Mapping]) -> list[bool]:
    """Per round row: whether it enters the per-round tests (the module docstring's three rules)."""
    seen, chosen = set(), set()
    for i in sorted(range(len(rows)), key=lambda i: (_participant_number(rows[i]["participant"]), i)):
        row = rows[i]
        if _truthy(row["finished"]) and _truthy(row["as_assigned"]) and str(row["match_id"]) not in seen:
            seen.add(str(row["match_id"]))
            chosen.add(i)
    return [i in chosen for i in range(len(rows))]


def samples(rows: Sequence[Mapping], conditions: Sequence[str], round_count: int) -> list[Sample]:
    flags = analysis_flags(rows)
    result = []
    for measure, (column, *_rest) in MEASURES.items():
        for k in range(1, round_count + 1):
            groups = {c: [] for c in conditions}
            for row, counted in zip(rows, flags, strict=True):
                if counted and int(row["round"]) == k and row["condition"] in groups:
                    groups[row["condition"]].append(float(row[column]))
            result.append(Sample(measure, str(k), groups))
        per_participant: dict[tuple[str, str], list[float]] = defaultdict(list)
        for row in rows:
            if _truthy(row["finished"]) and _truthy(row["as_assigned"]):
                per_participant[(row["condition"], row["participant"])].append(float(row[column]))
        groups = {c: [] for c in conditions}
        for (condition, _), values in per_participant.items():
            if condition in groups:
                groups[condition].append(mean(values))
        result.append(Sample(measure, ALL_ROUNDS, groups))
    return result


def anova_row(sample: Sample) -> dict:
    result = one_way_anova(sample.groups)
    row = {"measure": sample.measure, "round": sample.round}
    if result is None:
        row.update(groups_compared="", n_total="", F="", p="", df_between="", df_within="", eta_squared="")
        row["note"] = "fewer than two conditions with at least two values"
    else:
        row.update(
            groups_compared=";".join(result.groups),
            n_total=result.n_total,
            F=result.f,
            p=result.p,
            df_between=result.df_between,
            df_within=result.df_within,
            eta_squared=result.eta_squared,
            note=_anova_note(result),
        )
    for c, values in sample.groups.items():
        row[f"n_{c}"] = len(values)
        row[f"mean_{c}"] = mean(values) if values else None
        row[f"sd_{c}"] = result.sds[c] if result is not None and c in result.sds else None
    return row


def tukey_rows(sample: Sample) -> list[dict]:
    return [{"measure": sample.measure, "round": sample.round, **vars(pair)} for pair in tukey_pairs(sample.groups)]


def kruskal_row(item: str, groups: dict[str, list[float]]) -> dict:
    result = kruskal_wallis(groups)
    row = {"measure": item, "round": SURVEY}
    if result is None:
        row.update(groups_compared="", n_total="", H="", p="", df="", epsilon_squared="")
        row["note"] = "fewer than two conditions with at least two answers"
    else:
        row.update(
            groups_compared=";".join(result.groups),
            n_total=result.n_total,
            H=result.h,
            p=result.p,
            df=result.df,
            epsilon_squared=result.epsilon_squared,
            note="" if result.h is not None else "every answer is the same: H is undefined",
        )
    for c, values in groups.items():
        row[f"n_{c}"] = len(values)
        row[f"median_{c}"] = float(statistics.median(values)) if values else None
        row[f"mean_{c}"] = mean(values) if values else None
    return row


def likert_groups(answers: Sequence[Mapping], conditions: Sequence[str], item: str) -> dict[str, list[float]]:
    groups = {c: [] for c in conditions}
    for answer in answers:
        if answer["item_key"] == item and answer["condition"] in groups:
            groups[answer["condition"]].append(float(answer["value"]))
    return groups


def analyse(
    rounds: Sequence[Mapping],
    answers: Sequence[Mapping],
    *,
    conditions: Sequence[str],
    round_count: int,
    likert_items: Sequence[str],
) -> Analysis:
    """Every table and figure of the bundle; conditions give the column and box order."""
    anova, tukey, figures = [], [], {}
    for sample in samples(rounds, conditions, round_count):
        anova.append(anova_row(sample))
        tukey.extend(tukey_rows(sample))
        _, title, axis, stem = MEASURES[sample.measure]
        where = "all rounds (per-participant means)" if sample.round == ALL_ROUNDS else f"round {sample.round}"
        suffix = ALL_ROUNDS if sample.round == ALL_ROUNDS else f"round{sample.round}"
        figures[f"boxplot_{stem}_{suffix}.png"] = box_plot(
            list(sample.groups.items()),
            title=f"{title}, {where}",
            y_label=axis,
            note=PER_PARTICIPANT_NOTE if sample.round == ALL_ROUNDS else PER_ROUND_NOTE,
        )
    kruskal = [kruskal_row(item, likert_groups(answers, conditions, item)) for item in likert_items]
    return Analysis(anova=anova, tukey=tukey, kruskal=kruskal, figures=figures)


def per_condition_columns(base: Mapping[str, str], conditions: Sequence[str], stats: Sequence[str]) -> list[str]:
    """The header: the fixed columns, then <stat>_<condition> for every condition, then note."""
    fixed = [c for c in base if "<condition>" not in c and c != "note"]
    varying = [f"{stat}_{c}" for c in conditions for stat in stats]
    return fixed + varying + (["note"] if "note" in base else [])


# --- helpers -------------------------------------------------------------------


def _anova_note(result: AnovaResult) -> str:
    if result.f is None:
        return "no variance at all: F is undefined"
    if result.p is None:
        return "p is undefined"
    return ""


def _truthy(value) -> bool:
    return str(value).strip().lower() in {"1", "true", "yes"}


def _participant_number(code) -> int:
    """'P0007' -> 7; anything else sorts last, still stably."""
    text = str(code)
    return int(text[1:]) if text[:1] == "P" and text[1:].isdigit() else 10**12
