"""Reads for researchers, per participant: survey.csv's rows (one per item a participant was asked) and
participants.csv's (one per participant: where they stopped, their rounds side by side, their answers). No writes.

Built on ``measures`` (its rounds.csv rows, pseudonyms and declared measures), so a participant's round columns
are copies of rounds.csv's values and the two files can never disagree. Participants appear as their pseudonym;
their token is never read here (querysets defer it).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.utils import timezone

from gameplay.engines.api import MeasureSpec
from gameplay.studies import questionnaire
from gameplay.studies.measures import (
    declared_measures,
    is_cooperative,
    iso,
    measure_column,
    participant_code,
    round_count,
    round_rows,
    survey_keys,
)
from gameplay.studies.models import Participant, Study, SurveyAnswer
from gameplay.studies.selectors import is_dropped

Step = Participant.Step


# --- survey answers ----------------------------------------------------------------------------------------------


def answer_rows(study: Study) -> list[dict]:
    """survey.csv: one row per item a participant was asked (Likert items, then the questions), in page order."""
    order = {key: i for i, key in enumerate(survey_keys(study))}
    items = {item["key"]: item for item in study.questions or []}
    answers = (
        SurveyAnswer.objects.filter(participant__study=study)
        .select_related("participant__condition")
        .defer("participant__token")
    )
    answers = sorted(answers, key=lambda a: (a.participant_id, order.get(a.item_key, len(order)), a.item_key))
    return [
        {
            "study": study.slug,
            "participant": participant_code(a.participant_id),
            "condition": a.participant.condition.key,
            "item_key": a.item_key,
            "value": _number(a.number) if a.kind == questionnaire.NUMBER else a.value,
            "answered_at": iso(a.answered_at),
            "kind": a.kind,
            "choices": ";".join(str(n) for n in a.choices or []),
            "text": questionnaire.words(a.kind, items.get(a.item_key), a.value, a.choices or [], a.text),
            "passed": a.passed,
        }
        for a in answers
    ]


def _number(value: float | None) -> int | float | None:
    """A number answer as written: 25, not 25.0."""
    return int(value) if value is not None and value.is_integer() else value


def wide_answer(row: dict) -> object:
    """An answer of survey.csv as participants.csv shows it: the value, the chosen numbers of a multiple-choice
    item, or the text of a text item."""
    return {questionnaire.MULTIPLE: row["choices"], questionnaire.TEXT: row["text"]}.get(row["kind"], row["value"])


# --- one row per participant --------------------------------------------------------------------------------------


def participants_of(study: Study):
    participants = list(
        Participant.objects.filter(study=study).select_related("condition").defer("token").order_by("pk")
    )
    for p in participants:
        p.study = study  # is_dropped reads dropout_after_s; no query per participant
    return participants


def dropout(participant: Participant, now: datetime | None = None) -> tuple[bool, str, int | None]:
    """(dropped, the step they stopped at, the round for the rounds step); the rule is selectors.is_dropped."""
    if not is_dropped(participant, now):
        return False, "", None
    in_rounds = participant.step == Step.ROUNDS
    return True, participant.step, participant.round_index + 1 if in_rounds else None


def participant_rows(
    study: Study, now: datetime | None = None, *, rounds: list[dict] | None = None, answers: list[dict] | None = None
) -> list[dict]:
    """One row per participant; ``rounds`` and ``answers`` reuse rows the caller already has."""
    now = now or timezone.now()
    by_round: dict[str, dict[int, dict]] = defaultdict(dict)
    for row in round_rows(study) if rounds is None else rounds:
        by_round[row["participant"]][row["round"]] = row
    by_item: dict[str, dict[str, dict]] = defaultdict(dict)
    for a in answer_rows(study) if answers is None else answers:
        by_item[a["participant"]][a["item_key"]] = a
    declared = declared_measures(study)
    flags = [measure_column(m.name) for m in declared if m.kind == "bool"]
    cooperative = is_cooperative(study)
    rows = []
    for p in participants_of(study):
        code = participant_code(p.pk)
        dropped, step, dropped_round = dropout(p, now)
        mine = by_round[code]
        row = {
            "study": study.slug,
            "participant": code,
            "prolific_pid": p.prolific_pid,
            "prolific_study_id": p.prolific_study_id,
            "prolific_session_id": p.prolific_session_id,
            "condition": p.condition.key,
            "step": p.step,
            "current_round": p.round_index + 1 if p.step == Step.ROUNDS else None,
            "created_at": iso(p.created_at),
            "consented_at": iso(p.consented_at),
            "completed_at": iso(p.completed_at),
            "last_seen_at": iso(p.last_seen_at),
            "dropped": dropped,
            "dropout_step": step,
            "dropout_round": dropped_round,
            "rounds_started": len(mine),
            "rounds_completed": sum(1 for r in mine.values() if r["completed"]),
            "rounds_won": None if cooperative else sum(1 for r in mine.values() if r["won"]),
        }
        for column in flags:
            row[f"rounds_{column}"] = sum(1 for r in mine.values() if r[column] is True)
        for k in range(1, round_count(study) + 1):
            r = mine.get(k, {})
            for suffix, column in participant_round_fields(declared):
                row[f"round{k}_{suffix}"] = r.get(column)
        checks = [a["passed"] for a in by_item[code].values() if a["passed"] is not None]
        row["attention_checks"] = len(checks)
        row["attention_passed"] = sum(checks)
        row["comprehension_attempts"] = p.comprehension_attempts
        row["comprehension_passed"] = p.comprehension_passed
        for key in survey_keys(study):
            answer = by_item[code].get(key)
            row[f"survey_{key}"] = wide_answer(answer) if answer else None
        rows.append(row)
    return rows


def participant_round_fields(declared: tuple[MeasureSpec, ...]) -> list[tuple[str, str]]:
    """(suffix of the round<k>_ column in participants.csv, the rounds.csv column it copies)."""
    fixed = [
        ("status", "status"),
        ("actions", "actions"),
        ("time_s", "time_to_complete_s"),
        ("score", "score"),
        ("won", "won"),
    ]
    return fixed + [(measure_column(m.name), measure_column(m.name)) for m in declared]
