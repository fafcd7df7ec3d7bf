"""Issue 38, point 6: a survey with questions of every kind (Likert, single and multiple choice, number, text,
optional, attention checks) is shown, validated, recorded and scored, and lands in survey.csv, participants.csv,
comprehension.csv and the README codebook; free-text answers are defused against spreadsheet formulas in the files.
On the study's pages, services and exports directly (no browser, no running agents)."""

from __future__ import annotations

import re

import pytest

from gameplay.studies import exports, questionnaire_services
from gameplay.studies.models import ComprehensionAnswer, Participant, SurveyAnswer
from tests.studies import factories
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    consent,
    eager_celery,
    make_study,
    participant_url,
)
from tests.studies.questionnaire_support import CHECK, QUESTIONS, parse

pytestmark = pytest.mark.django_db
Step = Participant.Step


def test_a_survey_of_every_kind_is_recorded_scored_exported_and_documented(client):
    study_ = make_study(rounds=1, questions=QUESTIONS, comprehension_items=CHECK)
    participant = consent(client, study_)
    Participant.objects.filter(pk=participant.pk).update(step=Step.SURVEY)
    url = participant_url("survey", participant)
    html = client.get(url).content.decode()
    assert html.count('type="radio" name="engagement"') == 5  # the Likert grid as before
    assert html.count('type="checkbox" name="tactics"') == 3 and html.count('type="radio" name="colour"') == 2
    assert re.search(r'<input type="number" name="age"[^>]* min="18" max="99" required', html)
    assert '<legend>3. Which tactics did you use?</legend>' in html  # after the two Likert items
    assert '<label class="question-label" for="id_age">5. How old are you?</label>' in html
    assert html.count("<textarea") == 2 and html.count("Optional.") == 1
    assert "Blue</span>" in html and "expected" not in html  # an attention check looks like any question

    likert = {"engagement": "4", "satisfaction": "2"}
    refused = client.post(url, {**likert, "tactics": ["1", "3"], "colour": "1", "age": "17", "typed": "maze"})
    assert refused.status_code == 200 and "greater than or equal to 18" in refused.content.decode()
    assert not SurveyAnswer.objects.exists()
    done = client.post(url, {**likert, "tactics": ["1", "3"], "colour": "1", "age": "30", "typed": " Maze ",
                             "notes": ""})
    assert done["Location"] == participant_url("complete", participant)
    stored = {a.item_key: (a.kind, a.value, a.number, a.choices, a.text, a.passed) for a in participant.answers.all()}
    assert stored == {
        "engagement": ("likert", 4, None, [], "", None), "satisfaction": ("likert", 2, None, [], "", None),
        "tactics": ("multiple", None, None, [1, 3], "", None),
        "colour": ("single", 1, None, [], "", False),  # Red: the attention check failed
        "age": ("number", None, 30.0, [], "", None),
        "typed": ("text", None, None, [], "Maze", True),  # case and spaces do not count
        "notes": ("text", None, None, [], "", None),  # optional, left out: stored blank
    }
    ComprehensionAnswer.objects.create(participant=participant, attempt=1, item_key="goal", choice=3, correct=False)
    Participant.objects.filter(pk=participant.pk).update(comprehension_attempts=1, comprehension_passed=False)

    survey = {r["item_key"]: r for r in parse(exports.survey_csv(study_))}
    assert list(survey) == ["engagement", "satisfaction", "tactics", "colour", "age", "typed", "notes"]
    cells = ("kind", "value", "choices", "text", "passed")
    assert [tuple(survey[k][c] for c in cells) for k in survey] == [
        ("likert", "4", "", "", ""), ("likert", "2", "", "", ""), ("multiple", "", "1;3", "Left | Wait", ""),
        ("single", "1", "", "Red", "0"), ("number", "30", "", "", ""), ("text", "", "", "Maze", "1"),
        ("text", "", "", "", ""),
    ]
    person = parse(exports.participants_csv(study_))[0]
    assert {k: v for k, v in person.items() if k.startswith(("survey_", "attention_", "comprehension_"))} == {
        "attention_checks": "2", "attention_passed": "1", "comprehension_attempts": "1",
        "comprehension_passed": "0", "survey_engagement": "4", "survey_satisfaction": "2", "survey_tactics": "1;3",
        "survey_colour": "1", "survey_age": "30", "survey_typed": "Maze", "survey_notes": "",
    }
    assert parse(exports.comprehension_csv(study_)) == [{
        "study": "tiny", "participant": f"P{participant.pk:04d}", "condition": "mute", "attempt": "1",
        "item_key": "goal", "choice": "3", "choice_label": "Run", "correct": "0",
        "answered_at": parse(exports.comprehension_csv(study_))[0]["answered_at"],
    }]
    readme = exports.readme(study_)
    for line in (
        "  tactics (multiple): Which tactics did you use?",
        "    options: 1 = Left; 2 = Right; 3 = Wait",
        "  colour (single, attention check, expected: 'Blue'): Please choose Blue.",
        "  age (number, whole, 18..99): How old are you?",
        "  notes (text, at most 1000 characters, optional): Anything else?",
        "Comprehension check before round 1 (comprehension.csv; 3 tries; after the last failed try the participant "
        "is screened out (step screened)):",
        "  goal: What is the goal? (right answer: 1 = Find the treasure)",
        "  passed: attention checks (items with an expected answer, listed above): 1 if the answer was the expected "
        "one, 0 if not, recorded when answered; blank for every other item",
        "comprehension.csv: one row per comprehension question per try",
        "  choice_label: that option's label",
        "payments.csv: one row per participant: what they are owed (the rule is above)",
        "  bonus_basis: the bonus rule's measure over the participant's completed rounds (sum or mean, see above); "
        "blank without a rule or without completed rounds",
        "  survey_<item>: the answer to each item, in survey order: likert, single and number items as survey.csv's "
        "value, multiple as its choices, text as its text",
    ):
        assert line in readme.splitlines(), line


def test_free_text_answers_are_defused_in_the_files(client):
    study_ = make_study(rounds=1, questions=[QUESTIONS[4]])
    participant = factories.make_participant(study_, "mute", step=Step.SURVEY)
    questionnaire_services.submit_survey(participant, {"engagement": 3, "satisfaction": 3, "notes": "=HYPERLINK(1)"})
    assert parse(exports.survey_csv(study_))[-1]["text"] == "'=HYPERLINK(1)"
    assert parse(exports.participants_csv(study_))[0]["survey_notes"] == "'=HYPERLINK(1)"
