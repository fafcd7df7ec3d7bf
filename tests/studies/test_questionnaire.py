"""Issue 38, point 6: questions beyond Likert, the comprehension check before round 1, attention checks, and the
payment file; all in the exports and the codebook. Point 7: the new presets load.

Every test here works on the study's pages, services and exports directly (no browser, no running agents)."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from gameplay.studies import exports, questionnaire_services
from gameplay.studies.admin_questionnaire import QuestionsField
from gameplay.studies.bots.journey import Journey, page_kind
from gameplay.studies.models import ComprehensionAnswer, Participant, ParticipantRound, Study, SurveyAnswer
from gameplay.studies.validation import study_errors
from tests.studies import factories
from tests.studies.admin_support import ADD, admin_client, errors_near, study_post  # noqa: F401 (a fixture)
from tests.studies.journey_support import consent, eager_celery, make_study, participant_url  # noqa: F401
from tests.studies.validation_support import condition, study
from tests.support.presets import STUDIES

pytestmark = pytest.mark.django_db
Step = Participant.Step

QUESTIONS = [
    {"key": "tactics", "kind": "multiple", "prompt": "Which tactics did you use?",
     "options": ["Left", "Right", "Wait"]},
    {"key": "colour", "kind": "single", "prompt": "Please choose Blue.", "options": ["Red", "Blue"],
     "expected": "Blue"},
    {"key": "age", "kind": "number", "prompt": "How old are you?", "min": 18, "max": 99, "integer": True},
    {"key": "typed", "kind": "text", "prompt": "Please type the word maze.", "expected": "maze"},
    {"key": "notes", "kind": "text", "prompt": "Anything else?", "required": False},
]
CHECK = [
    {"key": "goal", "prompt": "What is the goal?", "options": ["Find the treasure", "Hide", "Run"],
     "answer": "Find the treasure"},
    {"key": "moves", "prompt": "Who moves?", "options": ["Only you", "You and your partner in turn"],
     "answer": "You and your partner in turn"},
]


def parse(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def without_csrf(html: str) -> str:
    """The page without its CSRF tokens (masked afresh on every request)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", html)


# --- the rules ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fields, field, message", [
    ({"questions": [{"key": "age", "kind": "number", "prompt": "Age?", "min": 10, "max": 5}]},
     "questions", "Item 1 (age): min must not be above max."),
    ({"questions": [{"key": "rank", "kind": "ranking", "prompt": "?"}]}, "questions", "Item 1 (rank): kind must be"),
    ({"questions": [{"key": "n", "kind": "number", "prompt": "?", "options": ["a", "b"]}]},
     "questions", "Item 1 (n): a number item has no field options."),
    ({"questions": [{"key": "c", "kind": "single", "prompt": "?", "options": ["only"]}]},
     "questions", "Item 1 (c): options must be a list of 2 to 20 labels."),
    ({"questions": [{"key": "c", "kind": "single", "prompt": "?", "options": ["a", "b"], "expected": "z"}]},
     "questions", "Item 1 (c): expected must be one of its options, not 'z'."),
    ({"questions": [{"key": "t", "kind": "text", "prompt": "?", "required": False, "expected": "x"}]},
     "questions", "Item 1 (t): an attention check (expected) must be required."),
    ({"questions": [{"key": "m", "kind": "multiple", "prompt": "?", "options": ["a", "b"], "expected": ["a", "c"]}]},
     "questions", "Item 1 (m): expected must be a non-empty list of its options"),
    ({"questions": [{"key": "fun", "kind": "text", "prompt": "?"}]},
     "questions", "Item 1 (fun): the key 'fun' is used"),
    ({"comprehension_items": [{**CHECK[0], "answer": "Swim"}]},
     "comprehension_items", "Item 1 (goal): answer must be one of its options, not 'Swim'."),
    ({"comprehension_items": [{**CHECK[0], "hint": "x"}]},
     "comprehension_items", "Item 1 (goal): a comprehension question has no field hint."),
    ({"comprehension_max_attempts": 0}, "comprehension_max_attempts", "Allow from 1 to 10 attempts."),
    ({"bonus_rule": {"measure": "gold", "per_unit": 0.1}},
     "bonus_rule", "measure: 'gold' is not a measure of Santorini"),
    ({"bonus_rule": {"measure": "turns", "per_unit": -1}}, "bonus_rule", "per_unit: an amount of at least 0"),
    ({"bonus_rule": {"measure": "turns", "per_unit": 1, "over": "max"}}, "bonus_rule", "over: sum or mean"),
    ({"base_payment": 1.234}, "base_payment", "at most two decimals"),
    ({"payment_currency": "pounds"}, "payment_currency", "three-letter ISO code"),
])
def test_the_rules_name_the_item_and_the_field(fields, field, message):
    errors = study_errors(study(**fields), [condition()])
    assert list(errors) == [field], errors
    assert any(message in m for m in errors[field]), errors[field]


def test_every_kind_of_item_a_check_and_a_bonus_rule_are_valid():
    valid = study(questions=QUESTIONS, comprehension_items=CHECK, comprehension_max_attempts=2,
                  base_payment=2.55, payment_currency="USD",
                  bonus_rule={"measure": "turns", "per_unit": 0.05, "cap": 1, "over": "mean"})
    assert study_errors(valid, [condition()]) == {}


# --- the comprehension check ------------------------------------------------------------------------------------


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


# --- the survey and its exports ---------------------------------------------------------------------------------


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


# --- payments.csv ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule, bonus", [
    # Turns over both rounds: route 1 and route 2 plus a detour of two pairs of stays; 0.10 each, capped at 5.
    ({"measure": "turns", "per_unit": 0.1, "cap": 5}, lambda turns: min(Decimal("5"), Decimal("0.1") * turns)),
    # The mean of a yes/no measure: one round found (1), one out of turns (0): 0.5 x 1.2 = 0.60.
    ({"measure": "success", "per_unit": 1.2, "over": "mean"}, lambda turns: Decimal("0.60")),
])
def test_payments_pay_the_base_and_the_bonus_rule_to_those_who_completed(rule, bonus):
    study_ = factories.make_study("pay", rounds=2, turn_cap=12, base_payment=Decimal("2.50"), bonus_rule=rule)
    now = timezone.now()
    done = factories.make_participant(study_, "A-Mute", step=Step.COMPLETE, pid="done",
                                      consented_at=now - timedelta(minutes=12.5), completed_at=now)
    factories.play_round([done], 0, agent="gnomes-mute", detour=2)
    outcome = "found" if rule["measure"] == "turns" else "out_of_turns"
    factories.play_round([done], 1, agent="gnomes-mute", outcome=outcome)
    playing = factories.make_participant(study_, "A-Mute", step=Step.ROUNDS, pid="playing")
    factories.play_round([playing], 0, agent="gnomes-mute")
    rows = {r["prolific_pid"]: r for r in parse(exports.payments_csv(study_))}
    turns = len(factories.route(1)) + 4 + len(factories.route(2))
    expected_bonus = bonus(turns).quantize(Decimal("0.01"))
    assert rows["done"] == {
        "study": "pay", "participant": f"P{done.pk:04d}", "prolific_pid": "done", "condition": "A-Mute",
        "step": "complete", "completed": "1", "minutes": "12.5", "base": "2.50",
        "bonus_basis": rows["done"]["bonus_basis"], "bonus": str(expected_bonus),
        "total": str(Decimal("2.50") + expected_bonus), "currency": "GBP",
    }
    if rule["measure"] == "turns":
        assert float(rows["done"]["bonus_basis"]) == turns and expected_bonus < 5
    assert (rows["playing"]["completed"], rows["playing"]["base"], rows["playing"]["bonus"],
            rows["playing"]["total"]) == ("0", "0.00", "0.00", "0.00")
    assert "Payment (payments.csv): 2.50 GBP to every participant who completes; bonus: " in exports.readme(study_)
    assert exports.PAYMENTS in exports.DATA_FILES and exports.DOWNLOADS[exports.PAYMENTS] is exports.payments_csv


# --- the presets ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset, fixture, seats", [
    ("codenames_teams.json", "codenames_llm_agent.json",
     {"teammates": ([0, 2], {1: "codenames-llm", 3: "codenames-llm"}),
      "opponents": ([0, 1], {2: "codenames-llm", 3: "codenames-llm"})}),
    ("who_is_spy_agents.json", "who_is_spy_llm_agent.json",
     {"llm": ([0], {1: "whospy-llm", 2: "whospy-llm", 3: "whospy-llm"}),
      "random": ([0], {1: "random", 2: "random", 3: "random"})}),
    ("atari_boxing_live.json", None, {"boxer": ([0], {1: "boxer"}), "random": ([0], {1: "random"})}),
])
def test_the_new_presets_load(preset, fixture, seats):
    if fixture:
        call_command("loaddata", str(STUDIES / fixture), verbosity=0)
    call_command("load_study", str(STUDIES / preset), verbosity=0)
    study_ = Study.objects.get()
    assert {c.key: (c.participant_seats, c.agent_seats) for c in study_.conditions.all()} == seats
    assert study_.questions and study_.bonus_rule and study_.base_payment > 0
    if study_.game_id == "atari_boxing":
        assert all(r["live"] for r in study_.rounds) and not study_.comprehension_items


def test_the_codenames_preset_has_a_check_and_a_multiple_choice_item_in_its_export_and_codebook():
    """The acceptance line: a comprehension check and a multiple-choice item in a preset, the export, the codebook."""
    call_command("loaddata", str(STUDIES / "codenames_llm_agent.json"), verbosity=0)
    call_command("load_study", str(STUDIES / "codenames_teams.json"), verbosity=0)
    study_ = Study.objects.get(slug="codenames-teams")
    participant = factories.make_participant(study_, "teammates", step=Step.COMPREHENSION)
    right = {i["key"]: i["options"].index(i["answer"]) + 1 for i in study_.comprehension_items}
    participant, wrong = questionnaire_services.submit_comprehension(participant, right)
    assert wrong == [] and participant.comprehension_passed
    Participant.objects.filter(pk=participant.pk).update(step=Step.SURVEY)
    answers = {"teamwork": 6, "agent_understanding": 4, "enjoyment": 7, "strategy": [1, 3], "attention": 2,
               "played_before": 3, "feedback": ""}
    questionnaire_services.submit_survey(Participant.objects.get(pk=participant.pk), answers)
    files = {name: exports.DOWNLOADS[name](study_)
             for name in (exports.SURVEY, exports.COMPREHENSION, exports.PAYMENTS)}
    files[exports.README] = exports.readme(study_).encode()
    survey = {r["item_key"]: r for r in parse(files[exports.SURVEY])}
    assert (survey["strategy"]["kind"], survey["strategy"]["choices"]) == ("multiple", "1;3")
    assert survey["strategy"]["text"] == "The meanings of the words | The other team's clues"
    assert survey["attention"]["passed"] == "1"
    assert [r["item_key"] for r in parse(files[exports.COMPREHENSION])] == ["clue", "assassin", "key_card"]
    payment = parse(files[exports.PAYMENTS])[0]
    assert (payment["completed"], payment["base"], payment["bonus"]) == ("1", "4.00", "0.00")  # no rounds played
    readme = files[exports.README].decode()
    assert "  strategy (multiple): What did you use to choose your clues or guesses?" in readme.splitlines()
    assert "  assassin: What happens when a team picks the assassin? (right answer: 2 = It loses the game at " \
           "once)" in readme
    assert "bonus: 0.05 GBP per unit of m_agents_found (rounds.csv), summed over the participant's completed " \
           "rounds, at least 0, at most 1.0 GBP, to the cent." in readme


# --- the admin -----------------------------------------------------------------------------------------------------


def test_the_admin_edits_questions_the_check_and_the_bonus_as_tables(admin_client):  # noqa: F811
    cells = {
        "questions-0-key": "tactics", "questions-0-kind": "multiple", "questions-0-prompt": "Which tactics?",
        "questions-0-options": "Left | Right | Wait", "questions-0-expected": "Left | Wait",
        "questions-1-key": "age", "questions-1-kind": "number", "questions-1-prompt": "Age?",
        "questions-1-min": "18", "questions-1-max": "99", "questions-1-integer": "on",
        "questions-2-key": "notes", "questions-2-kind": "text", "questions-2-prompt": "Anything else?",
        "questions-2-optional": "on",
        "comprehension_items-0-key": "goal", "comprehension_items-0-prompt": "What is the goal?",
        "comprehension_items-0-options": "Win | Lose", "comprehension_items-0-answer": "Win",
        "comprehension_max_attempts": "2", "comprehension_fail_action": "continue",
        "base_payment": "3.50", "payment_currency": "GBP",
        "bonus_rule-0-measure": "turns", "bonus_rule-0-per_unit": "0.05", "bonus_rule-0-cap": "1",
        "bonus_rule-0-over": "sum",
    }
    html = admin_client.get(ADD).content.decode()
    assert 'name="questions-0-kind"' in html and 'name="comprehension_items-0-answer"' in html
    assert '<option value="turns">turns</option>' in html  # the bonus measures are the game's (and the platform's)

    refused = admin_client.post(ADD, study_post(**{**cells, "bonus_rule-0-measure": "gold",
                                                   "comprehension_items-0-answer": "Draw"}))
    assert refused.status_code == 200
    html = refused.content.decode()
    assert "answer must be one of its options" in errors_near(html, "comprehension_items-0-key")
    assert "&#x27;gold&#x27; is not a measure of Santorini" in errors_near(html, "bonus_rule-0-measure")
    assert not Study.objects.exists()
    # A table counts as sent once any cell is: emptying every row clears the list; a form without it keeps it.
    table = QuestionsField(rows=2).widget
    assert not table.value_omitted_from_data({"questions-0-key": ""}, {}, "questions")
    assert table.value_omitted_from_data({"title": "x"}, {}, "questions")

    saved = admin_client.post(ADD, study_post(**cells))
    assert saved.status_code == 302, saved.content.decode()[:2000]
    study_ = Study.objects.get()
    assert study_.questions == [
        {"key": "tactics", "kind": "multiple", "prompt": "Which tactics?", "options": ["Left", "Right", "Wait"],
         "expected": ["Left", "Wait"]},
        {"key": "age", "kind": "number", "prompt": "Age?", "min": 18, "max": 99, "integer": True},
        {"key": "notes", "kind": "text", "prompt": "Anything else?", "required": False},
    ]
    assert study_.comprehension_items == [{"key": "goal", "prompt": "What is the goal?", "options": ["Win", "Lose"],
                                           "answer": "Win"}]
    assert (study_.comprehension_max_attempts, study_.comprehension_fail_action) == (2, "continue")
    assert (study_.base_payment, study_.bonus_rule) == (
        Decimal("3.50"), {"measure": "turns", "per_unit": 0.05, "cap": 1, "over": "sum"})
    change = f"/admin/studies/study/{study_.pk}/change/"
    page = admin_client.get(change).content.decode()
    assert 'value="Left | Right | Wait"' in page and 'value="Left | Wait"' in page  # shown as they were typed


# --- the study bots ------------------------------------------------------------------------------------------------


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
