"""The analysis bundle's tables and figures, from the long rows of the data export (pure: no Django).

Rows are the dicts written to rounds.csv and survey.csv, so everything here can be recomputed from the
CSVs alone. Nothing here knows a game: the caller names the outcomes (``Outcome``: a rounds.csv column with
its figure title) and the yes/no columns to count, from what the study's game declares. Which rounds count
(the rules the README states):

* only completed rounds (``completed`` = 1: the round's match finished): an aborted or running round has no
  time to complete, and its counts stop at a quit point, not at the end of the game;
* only rounds played as the condition prescribes (``as_assigned`` = 1), so a participant who was given the
  fallback agent after a pairing timeout is not counted as playing another participant;
* each match once: when several participants share a match they have a row each for it, and counting every
  row would weigh that match more than a match with an agent (the lowest participant id's row is kept).

Completed rounds include those a game ended without reaching its goal (a turn cap): the ANOVA counts them
at their end value and its note says how many there are; for games with a goal, ``time_to_goal`` analyses the
same rounds again with those kept as censored (Kaplan-Meier, log-rank).

"all" pools rounds per participant: the mean of that participant's completed, as-assigned rounds (the match
rule does not apply there, so every participant of a shared match counts, each with their own rounds).

Groups (conditions) with fewer than two values cannot enter a test; every table still reports each group's
size, and a note names the groups left out, so nothing is dropped silently.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import time_to_goal
from .anova import MIN_GROUP_SIZE, AnovaResult, mean, one_way_anova
from .boxplots import box_plot
from .kruskal import kruskal_wallis
from .rows import analysis_flags, counted, is_blank, truthy
from .tukey import CONFIDENCE, tukey_pairs


@dataclass(frozen=True)
class Outcome:
    """A numeric rounds.csv column the bundle tests across conditions and draws as box plots."""

    column: str  # the rounds.csv column, also the ``measure`` of anova.csv and tukey.csv
    title: str  # figure title, e.g. "Time to complete the round"
    axis: str  # y-axis label
    stem: str  # figure file stem: boxplot_<stem>_round<k>.png


# The platform's own outcomes, for every game; the game's declared number measures are added by the caller.
TIME = Outcome("time_to_complete_s", "Time to complete the round", "seconds", "time")
ACTIONS = Outcome("actions", "Actions in the round (all seats)", "actions", "actions")
SCORE = Outcome("score", "Score of the participant's seat", "score", "score")
BASE_OUTCOMES = (TIME, ACTIONS, SCORE)

ALL_ROUNDS = "all"
PER_ROUND_NOTE = "Completed rounds, played as the condition prescribes; each match once."
PER_PARTICIPANT_NOTE = "Each participant's mean over their completed rounds played as the condition prescribes."
CENSORED_BOX_NOTE = " Rounds that missed the goal sit at their end value (e.g. the turn cap): see the km_ figures."
SURVEY = "survey"

ANOVA_COLUMNS: dict[str, str] = {
    "measure": "the rounds.csv column tested (time_to_complete_s, actions, score, m_<measure> of the game)",
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
    "note": "why a statistic is blank, and which conditions were left out for having too few values",
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
    "note": "why a statistic is blank, and which conditions were left out for having too few answers",
}
RATE_COLUMNS: dict[str, str] = {
    "measure": "the yes/no rounds.csv column counted (won, m_<measure> of the game)",
    "round": "round number (1-based), or 'all' for every counted round of every participant",
    "condition": "the condition",
    "n": "counted rounds with a value (the same rounds as the tests: completed, as assigned, each match once;"
    " 'all': every completed, as-assigned round of every participant)",
    "count": "rounds where the value is yes (1)",
    "percent": "100 * count / n; blank when n = 0",
    "ci_low": "lower end of the 95% Wilson score interval of the proportion count / n (scipy.stats.binomtest)",
    "ci_high": "upper end of that interval",
    "note": "why percent is blank, if it is",
}


@dataclass(frozen=True)
class Sample:
    """The values of one measure in one round (or 'all'), per condition in study order."""

    measure: str
    round: str
    groups: dict[str, list[float]]
    blank: int = 0  # counted rounds without a value for the measure (left out, and said so in the note)


@dataclass(frozen=True)
class Analysis:
    anova: list[dict]
    tukey: list[dict]
    kruskal: list[dict]
    rates: list[dict]
    figures: dict[str, bytes]  # file name -> PNG
    km: list[dict] = ()  # km.csv rows (games with a goal only)
    logrank: list[dict] = ()  # logrank.csv rows


def samples(rows: Sequence[Mapping], conditions: Sequence[str], round_count: int, column: str) -> list[Sample]:
    """One sample per round plus 'all' (per-participant means) of one numeric column."""
    flags = analysis_flags(rows)
    result = []
    for k in range(1, round_count + 1):
        groups: dict[str, list[float]] = {c: [] for c in conditions}
        blank = 0
        for row, kept in zip(rows, flags, strict=True):
            if kept and int(row["round"]) == k and row["condition"] in groups:
                if is_blank(row[column]):
                    blank += 1
                else:
                    groups[row["condition"]].append(float(row[column]))
        result.append(Sample(column, str(k), groups, blank))
    per_participant: dict[tuple[str, str], list[float]] = defaultdict(list)
    blank = 0
    for row in rows:
        if counted(row) and row["condition"] in conditions:
            if is_blank(row[column]):
                blank += 1
            else:
                per_participant[(row["condition"], row["participant"])].append(float(row[column]))
    groups = {c: [] for c in conditions}
    for (condition, _), values in per_participant.items():
        groups[condition].append(mean(values))
    result.append(Sample(column, ALL_ROUNDS, groups, blank))
    return result


def anova_row(sample: Sample) -> dict:
    result = one_way_anova(sample.groups)
    row = {"measure": sample.measure, "round": sample.round}
    if result is None:
        row.update(groups_compared="", n_total="", F="", p="", df_between="", df_within="", eta_squared="")
        why = f"fewer than two conditions with at least {MIN_GROUP_SIZE} values: no test"
    else:
        row.update(
            groups_compared=";".join(result.groups),
            n_total=result.n_total,
            F=result.f,
            p=result.p,
            df_between=result.df_between,
            df_within=result.df_within,
            eta_squared=result.eta_squared,
        )
        why = _anova_note(result)
    row["note"] = _join(why, _left_out(sample.groups, "values"), _blanks(sample.blank))
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
        why = f"fewer than two conditions with at least {MIN_GROUP_SIZE} answers: no test"
    else:
        row.update(
            groups_compared=";".join(result.groups),
            n_total=result.n_total,
            H=result.h,
            p=result.p,
            df=result.df,
            epsilon_squared=result.epsilon_squared,
        )
        why = "" if result.h is not None else "every answer is the same: H is undefined"
    row["note"] = _join(why, _left_out(groups, "answers"))
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


def rate_rows(rows: Sequence[Mapping], conditions: Sequence[str], round_count: int, column: str) -> list[dict]:
    """Count and percent of yes per condition, per round (the tests' rounds) and over all counted rounds."""
    flags = analysis_flags(rows)
    result = []
    for label in [str(k) for k in range(1, round_count + 1)] + [ALL_ROUNDS]:
        for c in conditions:
            if label == ALL_ROUNDS:
                mine = [r for r in rows if counted(r) and r["condition"] == c]
            else:
                mine = [
                    r
                    for r, kept in zip(rows, flags, strict=True)
                    if kept and r["condition"] == c and str(r["round"]) == label
                ]
            values = [truthy(r[column]) for r in mine if not is_blank(r[column])]
            n, count = len(values), sum(values)
            notes = ["no counted rounds" if not mine else "no values" if n == 0 else "", _blanks(len(mine) - n)]
            result.append(
                {
                    "measure": column,
                    "round": label,
                    "condition": c,
                    "n": n,
                    "count": count,
                    "percent": 100 * count / n if n else None,
                    **wilson_interval(count, n),
                    "note": _join(*notes),
                }
            )
    return result


def wilson_interval(count: int, n: int) -> dict[str, float | None]:
    """The 95% Wilson score interval of count / n, from scipy; blank without rounds."""
    from scipy import stats  # here: scipy takes 0.6 s to import
    if not n:
        return {"ci_low": None, "ci_high": None}
    interval = stats.binomtest(count, n).proportion_ci(confidence_level=0.95, method="wilson")
    return {"ci_low": float(interval.low), "ci_high": float(interval.high)}


def analyse(
    rounds: Sequence[Mapping],
    answers: Sequence[Mapping],
    *,
    conditions: Sequence[str],
    round_count: int,
    likert_items: Sequence[str],
    outcomes: Sequence[Outcome] = BASE_OUTCOMES,
    flags: Sequence[str] = (),
    goal: str = "",
    timed: Sequence[Outcome] = (),
) -> Analysis:
    """Every table and figure of the bundle; conditions give the column and box order.

    ``outcomes``: numeric rounds.csv columns to test (ANOVA, Tukey HSD) and draw; ``flags``: yes/no columns to
    count (rates.csv); ``goal``: the yes/no column saying a round reached the game's goal, and ``timed``: the
    outcomes that are times to that goal (Kaplan-Meier curves and log-rank tests, censored rounds kept)."""
    anova, tukey, figures = [], [], {}
    kept = analysis_flags(rounds)
    for outcome in outcomes:
        for sample in samples(rounds, conditions, round_count, outcome.column):
            row = anova_row(sample)
            if goal and outcome in timed:
                censored = time_to_goal.censored_note(rounds, sample.round, outcome.column, goal, kept)
                row["note"] = _join(row["note"], censored)
            anova.append(row)
            tukey.extend(tukey_rows(sample))
            where = "all rounds (per-participant means)" if sample.round == ALL_ROUNDS else f"round {sample.round}"
            suffix = ALL_ROUNDS if sample.round == ALL_ROUNDS else f"round{sample.round}"
            figures[f"boxplot_{outcome.stem}_{suffix}.png"] = box_plot(
                list(sample.groups.items()),
                title=f"{outcome.title}, {where}",
                y_label=outcome.axis,
                note=(PER_PARTICIPANT_NOTE if sample.round == ALL_ROUNDS else PER_ROUND_NOTE)
                + (CENSORED_BOX_NOTE if goal and outcome in timed else ""),
            )
    kruskal = [kruskal_row(item, likert_groups(answers, conditions, item)) for item in likert_items]
    rates = [row for column in flags for row in rate_rows(rounds, conditions, round_count, column)]
    km, logrank = [], []
    if goal and timed:
        km, logrank, km_figures = time_to_goal.tables(
            rounds, conditions, round_count, [(o.column, o.axis, o.stem) for o in timed], goal
        )
        figures.update(km_figures)
    return Analysis(anova=anova, tukey=tukey, kruskal=kruskal, rates=rates, figures=figures, km=km, logrank=logrank)


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


def _left_out(groups: Mapping[str, Sequence[float]], what: str) -> str:
    small = [f"{c} (n={len(v)})" for c, v in groups.items() if len(v) < MIN_GROUP_SIZE]
    return f"left out with fewer than {MIN_GROUP_SIZE} {what}: {', '.join(small)}" if small else ""


def _blanks(count: int) -> str:
    return f"{count} counted round{'s' if count != 1 else ''} without a value left out" if count else ""


def _join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)
