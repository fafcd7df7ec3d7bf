"""The bundle's time-to-goal tables and figures: km.csv, logrank.csv and km_<measure>_round<k>.png (pure).

For games that declare a goal (``GameSpec.goal_measure``), a finished round that missed it is censored
(rounds.csv ``censored`` = 1). These analyses keep those rounds, as censored, over the same rounds as the
per-round ANOVA (completed, as assigned, each match once), so the two can be read side by side: the ANOVA
counts a censored round at its end value (the turn cap), the log-rank test only knows that the goal was not
reached by then.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .kmplots import km_plot
from .rows import analysis_flags, counted, is_blank
from .survival import Observation, kaplan_meier, log_rank_pairs

KM_COLUMNS: dict[str, str] = {
    "measure": "the rounds.csv column the time is read from (time_to_complete_s, or an until-goal m_<measure>)",
    "round": "round number (1-based)",
    "condition": "the condition",
    "time": "a time (or count) at which some round of the condition reached the goal or was censored",
    "at_risk": "rounds of the condition still without the goal just before this time",
    "events": "rounds that reached the goal at this time",
    "censored": "rounds that ended at this time without the goal (e.g. at the turn cap)",
    "survival": "Kaplan-Meier estimate of P(goal not reached yet) just after this time (scipy.stats.ecdf)",
}
LOGRANK_COLUMNS: dict[str, str] = {
    "measure": "as in km.csv",
    "round": "round number (1-based)",
    "group_a": "first condition of the pair",
    "group_b": "second condition of the pair",
    "n_a": "rounds of group_a",
    "goal_a": "rounds of group_a that reached the goal (the rest are censored)",
    "median_a": "Kaplan-Meier median time of group_a; blank when its curve never falls to one half",
    "n_b": "rounds of group_b",
    "goal_b": "rounds of group_b that reached the goal",
    "median_b": "Kaplan-Meier median time of group_b",
    "statistic": "log-rank statistic (scipy.stats.logrank, two-sided; its sign: positive when group_a reaches "
    "the goal later than expected under no difference)",
    "p": "two-sided p-value",
    "note": "which rounds the test uses; why a statistic is blank",
}
ROUNDS_NOTE = (
    "Completed rounds, played as the condition prescribes, each match once; rounds that missed the goal are "
    "censored at their end, not dropped."
)


def observations(
    rows: Sequence[Mapping], conditions: Sequence[str], round_number: int, column: str, goal: str
) -> dict[str, list[Observation]]:
    """Per condition: (value of ``column``, goal reached) of the counted rounds of one round number."""
    groups: dict[str, list[Observation]] = {c: [] for c in conditions}
    for row, kept in zip(rows, analysis_flags(rows), strict=True):
        if not kept or int(row["round"]) != round_number or row["condition"] not in groups:
            continue
        if is_blank(row[column]) or is_blank(row[goal]):
            continue
        groups[row["condition"]].append((float(row[column]), str(row[goal]).strip().lower() in {"1", "true"}))
    return groups


def tables(
    rows: Sequence[Mapping],
    conditions: Sequence[str],
    round_count: int,
    timed: Sequence[tuple[str, str, str]],
    goal: str,
) -> tuple[list[dict], list[dict], dict[str, bytes]]:
    """(km.csv rows, logrank.csv rows, figures) for every (column, axis, stem) in ``timed``."""
    km, tests, figures = [], [], {}
    for column, axis, stem in timed:
        for k in range(1, round_count + 1):
            groups = observations(rows, conditions, k, column, goal)
            curves = {c: kaplan_meier(obs) for c, obs in groups.items()}
            for c, curve in curves.items():
                if curve is None:
                    continue
                for i, t in enumerate(curve.times):
                    km.append({
                        "measure": column, "round": k, "condition": c, "time": t, "at_risk": curve.at_risk[i],
                        "events": curve.events_at[i], "censored": curve.censored_at[i],
                        "survival": curve.survival[i],
                    })
            tests.extend(_logrank_rows(column, k, groups, curves))
            figures[f"km_{stem}_round{k}.png"] = km_plot(
                list(curves.items()), title=f"Rounds still without the goal, round {k}", x_label=axis,
                note=ROUNDS_NOTE,
            )
    return km, tests, figures


def _logrank_rows(column: str, k: int, groups, curves) -> list[dict]:
    tested = {(t.group_a, t.group_b): t for t in log_rank_pairs(groups)}
    names = [c for c in groups if groups[c]]
    pairs = len(names) * (len(names) - 1) // 2
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            test = tested.get((a, b))
            finite = test is not None and math.isfinite(test.statistic) and math.isfinite(test.p)
            notes = [ROUNDS_NOTE]
            if test is None:
                notes.append("no round of either condition reached the goal: no test")
            elif not finite:
                notes.append("the statistic is undefined for these rounds")
            if pairs > 1:
                notes.append(f"one of {pairs} pairwise tests, not adjusted for multiple comparisons")
            rows.append({
                "measure": column, "round": k, "group_a": a, "group_b": b,
                "n_a": curves[a].n, "goal_a": curves[a].events, "median_a": curves[a].median,
                "n_b": curves[b].n, "goal_b": curves[b].events, "median_b": curves[b].median,
                "statistic": test.statistic if finite else None, "p": test.p if finite else None,
                "note": " ".join(notes),
            })
    return rows


def censored_note(rows: Sequence[Mapping], round_label: str, column: str, goal: str, flags: Sequence[bool]) -> str:
    """For an ANOVA row of a timed measure: how many of its rounds are censored, counted at their end value."""
    if round_label == "all":
        chosen = [r for r in rows if counted(r)]
    else:
        chosen = [r for r, kept in zip(rows, flags, strict=True) if kept and str(r["round"]) == round_label]
    censored = sum(1 for r in chosen if not is_blank(r[column]) and str(r[goal]).strip() in {"0", "False", "false"})
    if not censored:
        return ""
    return (
        f"{censored} of these rounds missed the goal and count at their end value (e.g. the turn cap); "
        "logrank.csv treats them as censored"
    )

