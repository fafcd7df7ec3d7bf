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

from gameplay.studies import measures
from gameplay.studies.analysis import chat, report, time_to_goal
from gameplay.studies.models import Study

ROUNDS, MESSAGES, SURVEY, PARTICIPANTS = "rounds.csv", "messages.csv", "survey.csv", "participants.csv"
ANOVA, TUKEY, KRUSKAL, RATES = "anova.csv", "tukey.csv", "kruskal.csv", "rates.csv"
KM, LOGRANK, CHAT = "km.csv", "logrank.csv", "chat.csv"
README, ZIP = "README.txt", "analysis.zip"
DATA_FILES = (ROUNDS, MESSAGES, SURVEY, PARTICIPANTS)
# Spreadsheets run a cell starting with these as a formula; participants' free text must not be able to.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
KIND_WORDS = {"number": "a number", "bool": "1 (yes) or 0 (no)"}

# The platform's columns of rounds.csv, in order, with what the README says about each; the game's declared
# measures follow them (round_columns). measures builds rows with these keys.
ROUND_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id (P + database id; the same in every file)",
    "prolific_pid": "PROLIFIC_PID, if the study stores the ids from its link",
    "condition": "the participant's condition key",
    "condition_partner": "who the condition prescribes the participant plays with (e.g. 'agent random')",
    "round": "round number, 1-based, in the order the participant played",
    "options": "the round's game options as JSON (the study's round options with the condition's on top)",
    "match_id": "the round's match (every participant of a shared match has a row for it)",
    "seat": "the participant's seat in the match (0-based; the seat names are listed above)",
    "partner": "everyone else in the match in seat order, ';'-separated: participant ids or agent names",
    "partner_kind": "human, agent, mixed (people and agents) or blank (played alone)",
    "as_assigned": "1 if every seat was played as the condition prescribes (0 e.g. after a pairing timeout)",
    "status": "the match's status at export: finished, aborted (e.g. a partner left) or active",
    "departure": "left: this participant left the round mid-game (page closed or offline for 20 s); "
    "partner-left-agent / partner-left-end: a partner left and the study's rule applied (the fallback agent took "
    "their seat / the round ended); blank: nobody left",
    "completed": "1 if the match finished (the game reached its end)",
    "censored": "1 if the round finished without reaching the game's goal (its goal measure is 0, e.g. the turn "
    "cap was hit): its time and until-goal measures are censored, not times to the goal; 0 if the goal was "
    "reached; blank if not finished, or if the game declares no goal",
    "score": "the participant's seat's score from the game (0..1, all seats sum to 1); blank until finished",
    "won": "1 if the participant's team won, 0 if it lost or drew; blank in cooperative games and until finished",
    "actions": "actions applied in the match by all seats (the match version)",
    "time_to_complete_s": "seconds from the round's start event to the match's end; blank if not completed",
    "messages_participant": "chat messages sent by this participant",
    "messages_partner": "chat messages sent by everyone else in the match",
    "chars_participant": "total characters of this participant's messages",
    "chars_partner": "total characters of the others' messages",
    "mean_length_participant": "mean characters per message of this participant; blank without messages",
    "mean_length_partner": "mean characters per message of the others; blank without messages",
    "agent_think_ms_mean": "agent seats: mean decision time in ms (blank without agents)",
    "agent_think_ms_median": "agent seats: median decision time in ms",
    "agent_think_ms_max": "agent seats: longest decision time in ms",
    "started_at": "server time of the round's start event (ISO 8601, UTC)",
    "finished_at": "server time the match ended, blank while playing or if aborted",
}
MESSAGE_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "the participant whose round this is: the sender, or the human partnered with the agent",
    "condition": "that participant's condition key",
    "round": "round number, 1-based",
    "match_id": "the round's match",
    "seat": "the sender's seat",
    "sender": "participant, partner (a human not in this study's export) or the agent's name",
    "length": "characters in the message",
    "text": "the message (a leading = + - @ is prefixed with ' so spreadsheets do not run it as a formula)",
    "sent_at": "server time (ISO 8601, UTC)",
    "turn": "moves made in the round before the message",
}
SURVEY_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id",
    "condition": "the participant's condition key",
    "item_key": "the Likert item's key",
    "value": "the answer, 1 (the item's low label) .. the study's scale (its high label)",
    "answered_at": "server time (ISO 8601, UTC)",
}
PARTICIPANT_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id",
    "prolific_pid": "PROLIFIC_PID (if stored)",
    "prolific_study_id": "STUDY_ID (if stored)",
    "prolific_session_id": "SESSION_ID (if stored)",
    "condition": "condition key",
    "step": "the furthest step reached: consent, instructions, rounds, survey, complete or ended",
    "current_round": "while in the rounds step: the round being played (1-based)",
    "created_at": "when the participant record was created (at consent)",
    "consented_at": "consent time",
    "completed_at": "completion time (survey submitted)",
    "last_seen_at": "last request of the participant",
    "dropped": "1 if not complete or ended and silent for longer than the study's dropout_after_s",
    "dropout_step": "for dropouts: the step where they stopped",
    "dropout_round": "for dropouts in the rounds step: the round (1-based)",
    "rounds_started": "rounds with a match",
    "rounds_completed": "rounds whose match finished",
    "rounds_won": "rounds won (blank in cooperative games)",
}
PER_ROUND_COLUMNS: dict[str, str] = {
    "status": "per round k: the match's status (rounds.csv status)",
    "actions": "per round k: actions in the match",
    "time_s": "per round k: time to complete in seconds",
    "score": "per round k: the participant's score",
    "won": "per round k: 1 if won (blank in cooperative games)",
}


def round_columns(study: Study) -> dict[str, str]:
    """rounds.csv's columns with their README lines: the platform's, then one per measure the game declares."""
    declared = {measures.measure_column(m.name): _describe(m) for m in measures.declared_measures(study)}
    return {**ROUND_COLUMNS, **declared}


def participant_column_docs(study: Study) -> dict[str, str]:
    """participants.csv's columns as the README lists them (round<k>_ and survey_ columns as patterns)."""
    declared = measures.declared_measures(study)
    docs = dict(PARTICIPANT_COLUMNS)
    for m in declared:
        if m.kind == "bool":
            docs[f"rounds_{measures.measure_column(m.name)}"] = f"rounds where {measures.measure_column(m.name)} = 1"
    for suffix, column in measures.participant_round_fields(declared):
        docs[f"round<k>_{suffix}"] = PER_ROUND_COLUMNS.get(suffix) or f"per round k: {column} (see rounds.csv)"
    docs["survey_<item>"] = "the answer to each Likert item"
    return docs


def participant_columns(study: Study) -> list[str]:
    declared = measures.declared_measures(study)
    fixed = [c for c in participant_column_docs(study) if "<" not in c]
    per_round = [
        f"round{k}_{suffix}"
        for k in range(1, measures.round_count(study) + 1)
        for suffix, _ in measures.participant_round_fields(declared)
    ]
    return fixed + per_round + [f"survey_{key}" for key in measures.likert_keys(study)]


def outcomes(study: Study) -> list[report.Outcome]:
    """The numeric outcomes the bundle tests: time, actions, score (not in a cooperative game, where every seat
    gets the same even share), then every number measure the game declares."""
    declared = [
        report.Outcome(column, m.name.replace("_", " ").capitalize(), axis=m.name, stem=column)
        for m in measures.declared_measures(study)
        if m.kind == "number"
        for column in [measures.measure_column(m.name)]
    ]
    base = [o for o in report.BASE_OUTCOMES if o is not report.SCORE or not measures.is_cooperative(study)]
    return [*base, *declared]


def timed_outcomes(study: Study) -> list[report.Outcome]:
    """The outcomes that are times to the game's goal: time to complete and the until-goal measures (none when
    the game declares no goal)."""
    if not measures.goal_column(study):
        return []
    timed = {report.TIME.column, *measures.until_goal_columns(study)}
    return [o for o in outcomes(study) if o.column in timed]


def flags(study: Study) -> list[str]:
    """The yes/no columns rates.csv counts: won (unless the game is cooperative), then every bool measure."""
    declared = [measures.measure_column(m.name) for m in measures.declared_measures(study) if m.kind == "bool"]
    return ([] if measures.is_cooperative(study) else ["won"]) + declared


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
    rows = measures.message_rows(study)
    return csv_bytes(list(MESSAGE_COLUMNS), [{**r, "text": defuse(r["text"])} for r in rows])


def survey_csv(study: Study) -> bytes:
    return csv_bytes(list(SURVEY_COLUMNS), measures.answer_rows(study))


def participants_csv(study: Study) -> bytes:
    return csv_bytes(participant_columns(study), measures.participant_rows(study))


# One builder per single-file download.
DOWNLOADS: dict[str, Callable[[Study], bytes]] = {
    ROUNDS: rounds_csv,
    MESSAGES: messages_csv,
    SURVEY: survey_csv,
    PARTICIPANTS: participants_csv,
}


def bundle(study: Study) -> dict[str, bytes]:
    """Every file of the analysis bundle, by name: README first, then analysis tables, figures and data."""
    rounds = measures.round_rows(study)
    answers = measures.answer_rows(study)
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
        SURVEY: csv_bytes(list(SURVEY_COLUMNS), answers),
        PARTICIPANTS: csv_bytes(
            participant_columns(study), measures.participant_rows(study, rounds=rounds, answers=answers)
        ),
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
            "one row per participant-round",
            {**round_columns(study), "in_analysis": "1 if used by the per-round tests (see above)"},
        ),
        (MESSAGES, "one row per chat message", MESSAGE_COLUMNS),
        (SURVEY, "one row per survey answer", SURVEY_COLUMNS),
        (PARTICIPANTS, "one row per participant", participant_column_docs(study)),
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


def _describe(measure) -> str:
    return f"{measure.description} ({KIND_WORDS.get(measure.kind, measure.kind)}; declared by the game)"


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
