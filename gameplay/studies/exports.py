"""A study's files: the long and wide data CSVs, the analysis tables and box plots, a README, and
analysis.zip holding all of them.

The download views and ``manage.py export_study`` both go through ``bundle``, so a download and an export
of the same data contain the same files. Statistics come from ``analysis`` (pure) fed with the very rows
written to rounds.csv and survey.csv, so anyone can recompute them from the CSVs alone. The columns of the
game's own outcome measures (``m_<name>``) and their README lines come from what the study's game declares
(``GameSpec.measures``), never from its id.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from django.utils import timezone

from gameplay.studies import measures, participant_measures, words
from gameplay.studies.analysis import chat, report, time_to_goal
from gameplay.studies.comprehension_rows import comprehension_rows
from gameplay.studies.export_columns import (
    COMPREHENSION_COLUMNS,
    MESSAGE_COLUMNS,
    PAYMENT_COLUMNS,
    ROUND_COLUMNS,
    SURVEY_COLUMNS,
    flags,
    outcomes,
    participant_column_docs,
    participant_columns,
    questionnaire_lines,
    round_columns,
    timed_outcomes,
)
from gameplay.studies.models import Study
from gameplay.studies.payments import payment_rows

# Views, the dashboard and tests read the column lists through this module as well.
__all__ = [
    "MESSAGE_COLUMNS", "ROUND_COLUMNS", "SURVEY_COLUMNS", "flags", "outcomes", "participant_columns", "round_columns",
    "timed_outcomes",
]

ROUNDS, MESSAGES, SURVEY, PARTICIPANTS = "rounds.csv", "messages.csv", "survey.csv", "participants.csv"
COMPREHENSION, PAYMENTS = "comprehension.csv", "payments.csv"
ANOVA, TUKEY, KRUSKAL, RATES = "anova.csv", "tukey.csv", "kruskal.csv", "rates.csv"
KM, LOGRANK, CHAT = "km.csv", "logrank.csv", "chat.csv"
README, ZIP = "README.txt", "analysis.zip"
DATA_FILES = (ROUNDS, MESSAGES, SURVEY, PARTICIPANTS, COMPREHENSION, PAYMENTS)
# Spreadsheets run a cell starting with these as a formula; participants' free text must not be able to.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
def csv_bytes(columns: Sequence[str], rows: Iterable[Mapping]) -> bytes:
    """RFC 4180 CSV in UTF-8; blanks for None, 1/0 for booleans, floats at full (round-trip) precision."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[c]) for c in columns])  # a missing key is a bug: fail, never write blanks
    return out.getvalue().encode("utf-8")


def rounds_csv(study: Study, rows: Sequence[Mapping] | None = None) -> bytes:
    """rounds.csv, with in_analysis: which rows the per-round tests use (the rule is in analysis.report)."""
    rows = measures.round_rows(study) if rows is None else rows
    flags = report.analysis_flags(rows)
    return csv_bytes(
        [*round_columns(study), "in_analysis"],
        [{**row, "in_analysis": flag} for row, flag in zip(rows, flags, strict=True)],
    )


def messages_csv(study: Study) -> bytes:
    """messages.csv: every chat line and free-text action (``words``); the written cells defused."""
    rows = words.message_rows(study)
    written = ("text", "action_label")  # what people and agents wrote (a label may quote the text)
    return csv_bytes(list(MESSAGE_COLUMNS), [{**r, **{c: defuse(r[c]) for c in written}} for r in rows])


def survey_csv(study: Study, answers: Sequence[Mapping] | None = None) -> bytes:
    """survey.csv; free-text answers defused."""
    answers = participant_measures.answer_rows(study) if answers is None else answers
    return csv_bytes(list(SURVEY_COLUMNS), [{**a, "text": defuse(a["text"])} for a in answers])


def participants_csv(study: Study, rows: Sequence[Mapping] | None = None) -> bytes:
    """participants.csv; the survey_ columns of text items defused."""
    rows = participant_measures.participant_rows(study) if rows is None else rows
    texts = [f"survey_{q['key']}" for q in study.questions or [] if q["kind"] == "text"]
    return csv_bytes(participant_columns(study), [{**r, **{c: defuse(r[c] or "") for c in texts}} for r in rows])


def comprehension_csv(study: Study) -> bytes:
    return csv_bytes(list(COMPREHENSION_COLUMNS), comprehension_rows(study))


def payments_csv(study: Study, rounds: Sequence[Mapping] | None = None) -> bytes:
    return csv_bytes(list(PAYMENT_COLUMNS), payment_rows(study, rounds))


# One builder per single-file download.
DOWNLOADS: dict[str, Callable[[Study], bytes]] = {
    ROUNDS: rounds_csv,
    MESSAGES: messages_csv,
    SURVEY: survey_csv,
    PARTICIPANTS: participants_csv,
    COMPREHENSION: comprehension_csv,
    PAYMENTS: payments_csv,
}


def bundle(study: Study) -> dict[str, bytes]:
    """Every file of the analysis bundle, by name: README first, then analysis tables, figures and data."""
    rounds = measures.round_rows(study)
    answers = participant_measures.answer_rows(study)
    conditions = measures.condition_keys(study)
    items = measures.likert_keys(study)
    result = report.analyse(
        rounds,
        answers,
        conditions=conditions,
        round_count=measures.round_count(study),
        likert_items=items,
        outcomes=outcomes(study),
        flags=flags(study),
        goal=measures.goal_column(study),
        timed=timed_outcomes(study),
    )
    survival = {}
    if measures.goal_column(study):
        survival = {
            KM: csv_bytes(list(time_to_goal.KM_COLUMNS), result.km),
            LOGRANK: csv_bytes(list(time_to_goal.LOGRANK_COLUMNS), result.logrank),
        }
    return {
        README: readme(study).encode("utf-8"),
        ANOVA: csv_bytes(
            report.per_condition_columns(report.ANOVA_COLUMNS, conditions, ("n", "mean", "sd")), result.anova
        ),
        TUKEY: csv_bytes(list(report.TUKEY_COLUMNS), result.tukey),
        KRUSKAL: csv_bytes(
            report.per_condition_columns(report.KRUSKAL_COLUMNS, conditions, ("n", "median", "mean")), result.kruskal
        ),
        RATES: csv_bytes(list(report.RATE_COLUMNS), result.rates),
        **survival,
        CHAT: csv_bytes(list(chat.CHAT_COLUMNS), chat.chat_rows(rounds, conditions, measures.round_count(study))),
        **result.figures,
        ROUNDS: rounds_csv(study, rounds),
        MESSAGES: messages_csv(study),
        SURVEY: survey_csv(study, answers),
        PARTICIPANTS: participants_csv(
            study, participant_measures.participant_rows(study, rounds=rounds, answers=answers)
        ),
        COMPREHENSION: comprehension_csv(study),
        PAYMENTS: payments_csv(study, rounds),
    }


def zip_bytes(files: Mapping[str, bytes], folder: str) -> bytes:
    """The files in one folder inside a zip (unzipping never scatters files into the current directory)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(f"{folder}/{name}", data)
    return buffer.getvalue()


def analysis_zip(study: Study) -> bytes:
    return zip_bytes(bundle(study), folder=f"{study.slug}-analysis")


def write_all(study: Study, out_dir: Path | str) -> list[Path]:
    """Write the bundle's files, unzipped, plus analysis.zip into out_dir (created if needed); returns them."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = bundle(study)
    files[ZIP] = zip_bytes(files, folder=f"{study.slug}-analysis")
    written = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


def defuse(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def readme(study: Study) -> str:
    conditions = study.conditions.order_by("pk")
    declared = measures.declared_measures(study)
    numbers = [o.column for o in outcomes(study)]
    lines = [
        f"Study: {study.title} ({study.slug})",
        f"Exported: {measures.iso(timezone.now())}",
        f"Rounds: {measures.round_count(study)}; game: {study.game_id}; declined consent: {study.declined_count}",
        "Seats: " + ", ".join(f"{i} = {name}" for i, name in enumerate(measures.seat_names(study))),
        "",
        "Conditions:",
        *(
            f"  {c.key}: {c.label} (plays with: {c.partner_summary}; seats: {_seats(c)}{_options(c)})"
            for c in conditions
        ),
        f"Survey items ({study.likert_scale}-point scale):",
        *(
            f"  {i['key']}: {i['prompt']} (1 = {i['low']}, {study.likert_scale} = {i['high']})"
            for i in study.likert_items or []
        ),
        *questionnaire_lines(study),
        "",
        "OUTCOME MEASURES THE GAME DECLARES (one rounds.csv column each, named m_<measure>; the prefix keeps them",
        "apart from the platform's own columns):",
        *(f"  {measures.measure_column(m.name)} ({m.kind}): {m.description}" for m in declared),
        *([] if declared else ["  (none: the game declares no outcome measures)"]),
        "",
        "Participants appear as P + a database id; no participant or seat link tokens are exported.",
        "Times are server timestamps in UTC (ISO 8601). CSV files are UTF-8, comma-separated, one header row.",
        "",
        "WHICH ROUNDS THE TESTS USE (column in_analysis of rounds.csv):",
        "  * completed rounds (completed = 1, the match reached the game's end): aborted or running rounds have no",
        "    completion time and their counts stop at a quit point (the game's own success or failure is in its",
        "    measures, e.g. a yes/no measure counted in rates.csv);",
        "  * rounds played as the condition prescribes (as_assigned = 1);",
        "  * each match once: when participants share a match, the lowest participant id's row stands for it.",
        "  'all' rows use each participant's mean over their completed, as-assigned rounds (every participant of",
        "  a shared match counts there, so they are not independent).",
        f"  Numeric outcomes tested: {', '.join(numbers)}.",
        f"  Yes/no outcomes counted in rates.csv: {', '.join(flags(study)) or '(none)'}.",
        "  Only conditions with at least two values enter a test; n_<condition> still shows every condition and",
        "  the note column names the conditions left out. ANOVA and Tukey HSD: scipy.stats.f_oneway and",
        "  scipy.stats.tukey_hsd; Kruskal-Wallis: scipy.stats.kruskal. Box plots: quartiles by linear",
        "  interpolation, whiskers to the furthest value within 1.5 IQR, dots beyond, n under each box.",
        *_goal_lines(study),
        "",
    ]
    sections = [
        (
            ROUNDS,
            "one row per participant per round, for the participant's own seat with that seat's measures (a match "
            "several participants share has a row for each of their seats; agent seats have none: they are named in "
            "partner and summarised in the agent_ columns)",
            {**round_columns(study), "in_analysis": "1 if used by the per-round tests (see above)"},
        ),
        (
            MESSAGES,
            "every word written in the rounds: one row per chat line (team chat included) and per free-text "
            "action (a move made by writing: a clue, a description, the message of a dialogue move, an argument), "
            "by participants and agents alike, in each match's order",
            MESSAGE_COLUMNS,
        ),
        (SURVEY, "one row per item a participant answered (Likert items, then the questions)", SURVEY_COLUMNS),
        (PARTICIPANTS, "one row per participant", participant_column_docs(study)),
        (COMPREHENSION, "one row per comprehension question per try", COMPREHENSION_COLUMNS),
        (PAYMENTS, "one row per participant: what they are owed (the rule is above)", PAYMENT_COLUMNS),
        (ANOVA, "one-way ANOVA per numeric outcome and round", report.ANOVA_COLUMNS),
        (TUKEY, "Tukey HSD, one row per pair of conditions compared in anova.csv", report.TUKEY_COLUMNS),
        (KRUSKAL, "Kruskal-Wallis per survey item", report.KRUSKAL_COLUMNS),
        (RATES, "yes/no outcomes: count, percent and 95% interval per condition and round", report.RATE_COLUMNS),
        (CHAT, "messages per side, per condition and round (counted rounds)", chat.CHAT_COLUMNS),
    ]
    if measures.goal_column(study):
        sections += [
            (KM, "Kaplan-Meier curves: one row per condition, round and time", time_to_goal.KM_COLUMNS),
            (LOGRANK, "log-rank tests, one row per pair of conditions and round", time_to_goal.LOGRANK_COLUMNS),
        ]
    for name, what, columns in sections:
        lines.append(f"{name}: {what}")
        lines.extend(f"  {column}: {description}" for column, description in columns.items())
        lines.append("")
    stems = ", ".join(f"boxplot_{o.stem}_round<k>.png" for o in outcomes(study))
    lines.append(f"Box plots, one box per condition (and _all for per-participant means): {stems}.")
    if measures.goal_column(study):
        curves = ", ".join(f"km_{o.stem}_round<k>.png" for o in timed_outcomes(study))
        lines.append(f"Kaplan-Meier curves, one line per condition, censored rounds ticked: {curves}.")
    return "\n".join(lines) + "\n"


def _goal_lines(study: Study) -> list[str]:
    """What the README says about rounds that ended without the game's goal (games that declare one)."""
    goal = measures.goal_column(study)
    if not goal:
        return []
    timed = ", ".join(o.column for o in timed_outcomes(study))
    return [
        f"  ROUNDS WITHOUT THE GOAL: the game's goal is {goal}. A completed round with {goal} = 0 ended without it",
        "  (e.g. at the turn cap) and is marked censored = 1 in rounds.csv. The ANOVA and Tukey HSD use every",
        f"  counted round, censored ones at their end value (their note says how many); for {timed}",
        "  km.csv, logrank.csv and the km_ figures use the same rounds with the censored ones kept as censored:",
        "  Kaplan-Meier estimates (scipy.stats.ecdf on scipy.stats.CensoredData) and two-sided log-rank tests",
        "  (scipy.stats.logrank; pairwise when there are more than two conditions, unadjusted). rates.csv gives",
        f"  the success rate ({goal}) with its 95% Wilson interval.",
    ]


def _seats(condition) -> str:
    agents = condition.agent_seats
    return ", ".join(
        f"{i}: agent {agents[i]}" if i in agents else f"{i}: participant" for i in range(len(condition.seats or []))
    )


def _options(condition) -> str:
    options = condition.options or {}
    return "; options: " + ", ".join(f"{k}={v}" for k, v in sorted(options.items())) if options else ""


def _cell(value) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    return value
