"""Issue 38, point 6: the rules for questions beyond Likert, the comprehension check, the bonus rule and the payment
fields name the item and the field at fault, and a study using every kind of item is valid; the admin edits the
questions, the check and the bonus as tables, shows these errors beside their fields and saves nothing until they
are fixed. No browser, no running agents."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gameplay.studies.admin_questionnaire import QuestionsField
from gameplay.studies.models import Study
from gameplay.studies.validation import study_errors
from tests.studies.admin_support import ADD, admin_client, errors_near, study_post  # noqa: F401 (a fixture)
from tests.studies.journey_support import eager_celery  # noqa: F401 (an autouse fixture)
from tests.studies.questionnaire_support import CHECK, QUESTIONS
from tests.studies.validation_support import condition, study

pytestmark = pytest.mark.django_db


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
