"""comprehension.csv: every try at a study's comprehension check, one row per question per try. A read, no writes.

The outcome per participant (tries made, passed or not) is in participants.csv; this file says which questions
were misunderstood, and how often, so a researcher can tell a confusing instruction from an inattentive person.
"""

from __future__ import annotations

from gameplay.studies.measures import iso, participant_code
from gameplay.studies.models import ComprehensionAnswer, Study
from gameplay.studies.questionnaire import option_label


def comprehension_rows(study: Study) -> list[dict]:
    items = {item["key"]: item for item in study.comprehension_items or []}
    order = {key: i for i, key in enumerate(items)}
    answers = (
        ComprehensionAnswer.objects.filter(participant__study=study)
        .select_related("participant__condition")
        .defer("participant__token")
    )
    answers = sorted(
        answers, key=lambda a: (a.participant_id, a.attempt, order.get(a.item_key, len(order)), a.item_key)
    )
    return [
        {
            "study": study.slug,
            "participant": participant_code(a.participant_id),
            "condition": a.participant.condition.key,
            "attempt": a.attempt,
            "item_key": a.item_key,
            "choice": a.choice,
            "choice_label": option_label(items.get(a.item_key, {}), a.choice),
            "correct": a.correct,
            "answered_at": iso(a.answered_at),
        }
        for a in answers
    ]
