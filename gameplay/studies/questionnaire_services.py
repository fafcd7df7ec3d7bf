"""Writes of the participant's answers: each try at the comprehension check and the survey.

Grading and recording rules are ``questionnaire``'s (pure); this module stores what they give, under the
participant's row lock and only at the step it belongs to, so a replayed POST changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from gameplay.studies import questionnaire
from gameplay.studies.models import ComprehensionAnswer, Participant, Study, SurveyAnswer
from gameplay.studies.participant_lock import locked
from gameplay.studies.services import begin_round, to_first_round
from gameplay.writes.services import ServiceError

Step = Participant.Step


def submit_comprehension(participant: Participant, choices: Mapping[str, int]) -> tuple[Participant, list[str]]:
    """Grade one try at the comprehension check on the server and record every answer of it.

    All right: on to round 1. Wrong answers with tries left: the participant stays on the check and the keys of
    the wrong questions are returned (the page marks them, never the right answers). After the last failed try
    the study's ``comprehension_fail_action`` applies: screened out (the session ends) or on to round 1 anyway;
    either way ``comprehension_passed`` is False. A replayed POST after the check changes nothing."""
    with transaction.atomic():
        p = locked(participant)
        if p.step != Step.COMPREHENSION:
            return p, []
        study, attempt = p.study, p.comprehension_attempts + 1
        items = study.comprehension_items
        wrong = questionnaire.wrong_keys(items, choices)
        ComprehensionAnswer.objects.bulk_create([
            ComprehensionAnswer(participant=p, attempt=attempt, item_key=item["key"],
                                choice=choices.get(item["key"]) or 0, correct=item["key"] not in wrong)
            for item in items
        ])
        p.comprehension_attempts = attempt
        if not wrong:
            p.comprehension_passed = True
            to_first_round(p)
        elif attempt >= study.comprehension_max_attempts:
            p.comprehension_passed = False
            if study.comprehension_fail_action == Study.ComprehensionFailed.CONTINUE:
                to_first_round(p)
            else:
                p.step = Step.SCREENED
        p.save(update_fields=["step", "round_index", "comprehension_attempts", "comprehension_passed"])
    return begin_round(p), wrong


def submit_survey(participant: Participant, answers: Mapping[str, object]) -> Participant:
    """Store one answer per item (every Likert item 1..scale, each question as its kind allows; an optional
    question left blank is stored blank), with each attention check's outcome, and complete the participant."""
    study = participant.study
    try:
        recorded = questionnaire.record_all(study.likert_items, study.likert_scale, study.questions or [], answers)
    except questionnaire.AnswerError as err:
        raise ServiceError(str(err)) from None
    with transaction.atomic():
        p = locked(participant)
        if p.step != Step.SURVEY:
            return p
        SurveyAnswer.objects.bulk_create([SurveyAnswer(participant=p, **vars(r)) for r in recorded])
        p.step = Step.COMPLETE
        p.completed_at = timezone.now()
        p.save(update_fields=["step", "completed_at"])
    return p
