"""Issue 38, point 6: the comprehension check before round 1. It comes after the instructions, its page carries no
answer key, wrong answers are marked and cleared while right ones are kept, and a pass lets the participant through
to round 1; after the last failed try the study screens the participant out or lets them play on, as configured.
run_study_bots' participants retry the check with options they have not tried and answer every kind of survey
question. On the study's pages and services directly (the bot against a live server), no browser."""

from __future__ import annotations

import re

import pytest

from gameplay.studies import exports
from gameplay.studies.bots.journey import Journey, page_kind
from gameplay.studies.models import ComprehensionAnswer, Participant, ParticipantRound, Study
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    consent,
    eager_celery,
    make_study,
    participant_url,
)
from tests.studies.questionnaire_support import CHECK, QUESTIONS, parse

pytestmark = pytest.mark.django_db
Step = Participant.Step


def without_csrf(html: str) -> str:
    """The page without its CSRF tokens (masked afresh on every request)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", html)


def test_the_check_comes_after_the_instructions_marks_wrong_answers_and_lets_through_when_right(client):
    study_ = make_study(rounds=1, comprehension_items=CHECK, comprehension_max_attempts=2)
    participant = consent(client, study_)
    assert "Continue to a few questions about the rules" in client.get(
        participant_url("instructions", participant)).content.decode()
    response = client.post(participant_url("instructions", participant))
    assert response["Location"] == participant_url("comprehension", participant)
    assert not ParticipantRound.objects.exists()  # no round before the check is passed

    page = without_csrf(client.get(response["Location"]).content.decode())
    assert "What is the goal?" in page and page.count('type="radio"') == 5 and "You have 2 tries" in page
    # No answer key in the page: with other right answers it is the same page, byte for byte.
    Study.objects.filter(pk=study_.pk).update(comprehension_items=[{**CHECK[0], "answer": "Run"},
                                                                   {**CHECK[1], "answer": "Only you"}])
    assert without_csrf(client.get(response["Location"]).content.decode()) == page
    Study.objects.filter(pk=study_.pk).update(comprehension_items=CHECK)

    wrong = client.post(participant_url("comprehension", participant), {"goal": "2", "moves": "2"})
    assert wrong["Location"] == participant_url("comprehension", participant)  # a reload never sends a try again
    retry = client.get(wrong["Location"]).content.decode()
    assert "1 answer was not right" in retry and "You have 1 try left" in retry
    goal = re.search(r'<fieldset class="question[^>]*>.*?</fieldset>', retry, re.S).group(0)
    assert 'aria-invalid="true"' in goal and "checked" not in goal  # wrong: marked and cleared
    assert re.search(r'name="moves"[^>]*value="2"[^>]*checked', retry)  # right: kept

    right = client.post(participant_url("comprehension", participant), {"goal": "1", "moves": "2"})
    assert right["Location"] == participant_url("round", participant, n=1)
    participant.refresh_from_db()
    assert (participant.step, participant.comprehension_attempts, participant.comprehension_passed) == (
        Step.ROUNDS, 2, True)
    assert ParticipantRound.objects.filter(participant=participant).count() == 1
    tries = ComprehensionAnswer.objects.filter(participant=participant).order_by("attempt", "pk")
    assert [(a.attempt, a.item_key, a.choice, a.correct) for a in tries] == [
        (1, "goal", 2, False), (1, "moves", 2, True), (2, "goal", 1, True), (2, "moves", 2, True)]
    assert client.get(participant_url("comprehension", participant))["Location"] == participant_url(
        "round", participant, n=1)


@pytest.mark.parametrize("action", ["end", "continue"])
def test_after_the_last_failed_try_the_study_screens_out_or_lets_play_on(client, action):
    study_ = make_study(rounds=1, comprehension_items=CHECK, comprehension_max_attempts=1,
                        comprehension_fail_action=action, comprehension_fail_code="SCREENED-7",
                        comprehension_fail_message="Sorry, the rules were not clear enough.")
    participant = consent(client, study_)
    client.post(participant_url("instructions", participant))
    failed = client.post(participant_url("comprehension", participant), {"goal": "3", "moves": "1"})
    participant.refresh_from_db()
    assert (participant.comprehension_attempts, participant.comprehension_passed) == (1, False)
    if action == "end":
        assert failed["Location"] == participant_url("screened", participant) and participant.step == Step.SCREENED
        page = client.get(failed["Location"]).content.decode()
        assert "Sorry, the rules were not clear enough." in page and "SCREENED-7" in page
        assert not ParticipantRound.objects.exists()
        # A replayed try changes nothing, and a screened-out participant is finished, not a dropout.
        client.post(participant_url("comprehension", participant), {"goal": "1", "moves": "2"})
        assert ComprehensionAnswer.objects.count() == 2
        row = parse(exports.participants_csv(study_))[0]
        assert (row["step"], row["dropped"], row["comprehension_passed"]) == ("screened", "0", "0")
    else:
        assert failed["Location"] == participant_url("round", participant, n=1) and participant.step == Step.ROUNDS
        assert ParticipantRound.objects.filter(participant=participant).exists()


@pytest.mark.django_db(transaction=True)
def test_a_bot_retries_the_check_with_untried_options_and_answers_every_kind_of_question(live_server):
    """run_study_bots' participants cannot know the right answers: they keep what the page kept and try another
    option where it cleared one (so a check with tries for every option is always passed, as a person would), and
    answer every kind of question, attention checks included, as they fall."""
    make_study("botcheck", rounds=1, comprehension_items=CHECK, comprehension_max_attempts=3, questions=QUESTIONS)
    journey = Journey(live_server.url, "botcheck", 1, seed=1, run_id="t", timeout=60, log=lambda message: None)
    page = journey._on_instructions(journey._consent(), None)
    while page_kind(page.path)[0] == "comprehension":
        page = journey._on_comprehension(page, None)
    assert page_kind(page.path) == ("round", 1)
    participant = Participant.objects.get()
    assert participant.comprehension_passed and participant.comprehension_attempts == (
        journey.outcome.comprehension_attempts) >= 2  # seed 1: at least one wrong try to retry from
    for item in CHECK:  # never the same wrong option twice; once right, kept
        tried = list(ComprehensionAnswer.objects.filter(item_key=item["key"]).order_by("attempt")
                     .values_list("choice", flat=True))
        first_right = tried.index(item["options"].index(item["answer"]) + 1)
        assert len(set(tried[:first_right + 1])) == first_right + 1 and set(tried[first_right:]) == {tried[-1]}

    Participant.objects.filter(pk=participant.pk).update(step=Step.SURVEY)
    survey = journey.client.get(participant_url("survey", participant))
    assert page_kind(journey._on_survey(survey, None).path)[0] == "complete"
    answers = {a.item_key: a for a in participant.answers.all()}
    assert len(answers["tactics"].choices) == 1 and answers["colour"].passed in (True, False)
    assert 18 <= answers["age"].number <= 99 and answers["age"].number.is_integer()
    assert answers["typed"].text and answers["typed"].passed is False  # a bot does not read the instruction
