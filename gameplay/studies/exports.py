"""A study's files: the long and wide data CSVs, the analysis tables and box plots, a README, and
analysis.zip holding all of them.

The download views and ``manage.py export_study`` both go through ``bundle``, so a download and an export
of the same data contain the same files. Statistics come from ``analysis`` (pure) fed with the very rows
written to rounds.csv and survey.csv, so anyone can recompute them from the CSVs alone.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from django.utils import timezone

from gameplay.studies import measures
from gameplay.studies.analysis import report
from gameplay.studies.models import Study

ROUNDS, MESSAGES, SURVEY, PARTICIPANTS = "rounds.csv", "messages.csv", "survey.csv", "participants.csv"
ANOVA, TUKEY, KRUSKAL, README, ZIP = "anova.csv", "tukey.csv", "kruskal.csv", "README.txt", "analysis.zip"
DATA_FILES = (ROUNDS, MESSAGES, SURVEY, PARTICIPANTS)
# Spreadsheets run a cell starting with these as a formula; participants' free text must not be able to.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# The files' columns, in order, with what the README says about each; measures builds rows with these keys.
ROUND_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id (P + database id; the same in every file)",
    "prolific_pid": "PROLIFIC_PID, if the study stores the ids from its link",
    "condition": "the participant's condition key",
    "condition_partner": "the partner the condition prescribes: human or agent",
    "round": "round number, 1-based, in the order the participant played",
    "game_round": "the game's own round option (which treasure) of this round",
    "match_id": "the round's match (both people of a human pair share it)",
    "seat": "the participant's seat in the match (0 = Gnome A, 1 = Gnome B)",
    "partner": "the partner: a participant id, or the agent's name",
    "partner_kind": "human or agent",
    "as_assigned": "1 if the partner is what the condition prescribes (0 e.g. after a pairing timeout)",
    "status": "engine status at export: found, out_of_turns or playing",
    "completed": "1 if the round is over (treasure found or out of turns)",
    "finished": "1 if the treasure was found",
    "turns": "moves made in the round (engine turn count)",
    "wall_hits": "moves blocked by a wall",
    "time_to_complete_s": "seconds from the round's start event to finding the treasure; blank if not found",
    "messages_participant": "chat messages sent by this participant",
    "messages_partner": "chat messages sent by the partner",
    "chars_participant": "total characters of this participant's messages",
    "chars_partner": "total characters of the partner's messages",
    "mean_length_participant": "mean characters per message of this participant; blank without messages",
    "mean_length_partner": "mean characters per message of the partner; blank without messages",
    "agent_think_ms_mean": "agent partners: mean decision time in ms (blank for human partners)",
    "agent_think_ms_median": "agent partners: median decision time in ms",
    "agent_think_ms_max": "agent partners: longest decision time in ms",
    "started_at": "server time of the round's start event (ISO 8601, UTC)",
    "finished_at": "server time the round ended (treasure or turn cap), blank while playing",
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
    "rounds_completed": "rounds that are over",
    "rounds_finished": "rounds where the treasure was found",
    "round<k>_status": "per round k: engine status",
    "round<k>_turns": "per round k: turns",
    "round<k>_time_s": "per round k: time to the treasure in seconds",
    "round<k>_finished": "per round k: 1 if the treasure was found",
    "survey_<item>": "the answer to each Likert item",
}


def participant_columns(study: Study) -> list[str]:
    fixed = [c for c in PARTICIPANT_COLUMNS if "<" not in c]
    per_round = [
        f"round{k}_{m}"
        for k in range(1, measures.round_count(study) + 1)
        for m in ("status", "turns", "time_s", "finished")
    ]
    return fixed + per_round + [f"survey_{key}" for key in measures.likert_keys(study)]


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
        [*ROUND_COLUMNS, "in_analysis"],
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
        rounds, answers, conditions=conditions, round_count=measures.round_count(study), likert_items=items
    )
    return {
        README: readme(study).encode("utf-8"),
        ANOVA: csv_bytes(
            report.per_condition_columns(report.ANOVA_COLUMNS, conditions, ("n", "mean", "sd")), result.anova
        ),
        TUKEY: csv_bytes(list(report.TUKEY_COLUMNS), result.tukey),
        KRUSKAL: csv_bytes(
            report.per_condition_columns(report.KRUSKAL_COLUMNS, conditions, ("n", "median", "mean")), result.kruskal
        ),
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
    lines = [
        f"Study: {study.title} ({study.slug})",
        f"Exported: {measures.iso(timezone.now())}",
        f"Rounds: {measures.round_count(study)}; game: {study.game_id}; declined consent: {study.declined_count}",
        "",
        "Conditions:",
        *(
            f"  {c.key}: {c.label} (partner: {c.partner}{', ' + c.agent_name if c.agent_name else ''})"
            for c in conditions
        ),
        f"Survey items ({study.likert_scale}-point scale):",
        *(
            f"  {i['key']}: {i['prompt']} (1 = {i['low']}, {study.likert_scale} = {i['high']})"
            for i in study.likert_items or []
        ),
        "",
        "Participants appear as P + a database id; no participant or seat link tokens are exported.",
        "Times are server timestamps in UTC (ISO 8601). CSV files are UTF-8, comma-separated, one header row.",
        "",
        "WHICH ROUNDS THE TESTS USE (column in_analysis of rounds.csv):",
        "  * rounds where the treasure was found (finished = 1): unfinished rounds have no completion time and",
        "    their turn count measures a cap or a quit point, not efficiency;",
        "  * rounds played with the partner the condition prescribes (as_assigned = 1);",
        "  * each match once: both people of a human pair share a match, so the lower participant id's row",
        "    stands for the pair.",
        "  'all' rows use each participant's mean over their finished, as-assigned rounds (both members of a",
        "  human pair count there, so they are not independent).",
        "  Only conditions with at least two values enter a test (n_<condition> still shows every condition).",
        "  ANOVA and Tukey HSD: scipy.stats.f_oneway and scipy.stats.tukey_hsd; Kruskal-Wallis:",
        "  scipy.stats.kruskal. Box plots: quartiles by linear interpolation, whiskers to the furthest value",
        "  within 1.5 IQR, dots beyond, n under each box.",
        "",
    ]
    sections = [
        (
            ROUNDS,
            "one row per participant-round",
            {**ROUND_COLUMNS, "in_analysis": "1 if used by the per-round tests (see above)"},
        ),
        (MESSAGES, "one row per chat message", MESSAGE_COLUMNS),
        (SURVEY, "one row per survey answer", SURVEY_COLUMNS),
        (PARTICIPANTS, "one row per participant", PARTICIPANT_COLUMNS),
        (ANOVA, "one-way ANOVA per measure and round", report.ANOVA_COLUMNS),
        (TUKEY, "Tukey HSD, one row per pair of conditions per measure and round", report.TUKEY_COLUMNS),
        (KRUSKAL, "Kruskal-Wallis per survey item", report.KRUSKAL_COLUMNS),
    ]
    for name, what, columns in sections:
        lines.append(f"{name}: {what}")
        lines.extend(f"  {column}: {description}" for column, description in columns.items())
        lines.append("")
    lines.append("boxplot_turns_round<k>.png, boxplot_time_round<k>.png (and _all): one box per condition.")
    return "\n".join(lines) + "\n"


def _cell(value) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    return value
