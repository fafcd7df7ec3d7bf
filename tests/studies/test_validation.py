"""The rules every way of editing a study shares (gameplay.studies.validation): errors keyed by field, and
load_study refusing a preset that breaks them before writing anything."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from gameplay.studies.models import Study
from gameplay.studies.presets import PresetError, load_preset, read_preset
from gameplay.studies.questionnaire_validation import likert_errors
from gameplay.studies.validation import condition_errors, study_errors
from tests.studies.validation_support import LIKERT, ME, OTHER, RANDOM, condition, study

pytestmark = pytest.mark.django_db


def test_a_valid_study_has_no_errors():
    assert study_errors(study(), [condition("vs-random"), condition("pair", (ME, OTHER))]) == {}
    gnomes = study(game_id="gnomes", rounds=[{"round": 1}, {"round": 2}], pairing_fallback_agent="gnomes-comm")
    mute = condition("mute", (ME, {"kind": "agent", "agent": "gnomes-mute"}), {"chat": False})
    assert study_errors(gnomes, [mute, condition("human", (ME, OTHER), {"chat": True})]) == {}


def test_errors_are_keyed_by_the_field_they_belong_to():
    errors = study_errors(study(game_id="chess"), [condition()])
    assert list(errors) == ["game_id"] and "chess" in errors["game_id"][0]

    errors = study_errors(study(rounds=[{}, {"alternate_workers": "maybe", "no_such": 1}]), [condition()])
    assert list(errors) == ["rounds"] and errors["rounds"][0].startswith("Round 2:")

    errors = study_errors(study(), [condition(seats=(ME, {"kind": "agent", "agent": "no-such-agent"}))])
    assert list(errors) == ["conditions[0].seats"] and "no-such-agent" in errors["conditions[0].seats"][0]

    errors = study_errors(study(), [condition(options={"no_such_option": True})])
    assert list(errors) == ["conditions[0].options"] and "no_such_option" in errors["conditions[0].options"][0]

    errors = study_errors(study(pairing_fallback_agent="nobody"), [condition(seats=(ME, OTHER))])
    assert list(errors) == ["pairing_fallback_agent"]
    errors = study_errors(study(pairing_fallback_agent=""), [condition(seats=(ME, OTHER))])
    assert list(errors) == ["pairing_fallback_agent"]  # someone must take the seat when pairing times out
    ending = study(pairing_fallback_agent="", pairing_timeout_action="end")
    assert study_errors(ending, [condition(seats=(ME, OTHER))]) == {}

    errors = study_errors(study(), [condition("a"), condition("a")])
    assert list(errors) == ["conditions[1].key"]
    assert list(study_errors(study(), [])) == ["conditions"]


def test_seats_must_fit_the_game_and_hold_a_participant():
    assert "seats" in condition_errors("santorini", [{}], [ME, RANDOM, RANDOM], {})  # Santorini has two seats
    assert "seats" in condition_errors("santorini", [{}], [RANDOM, RANDOM], {})  # nobody to take part
    assert "seats" in condition_errors("santorini", [{}], [ME, {"kind": "robot"}], {})
    assert "seats" in condition_errors("santorini", [{}], [ME, {"kind": "agent"}], {})
    assert "seats" in condition_errors("santorini", [{}], "two people", {})
    assert "options" in condition_errors("santorini", [{}], [ME, RANDOM], ["chat"])
    assert condition_errors("santorini", [{}], [RANDOM, ME], {}) == {}  # the participant may sit anywhere


@pytest.mark.parametrize(
    ("items", "scale"),
    [
        ([], 5),
        ("fun", 5),
        ([{"key": "fun", "prompt": "Fun?", "low": "No"}], 5),
        ([{"key": "not a slug", "prompt": "?", "low": "a", "high": "b"}], 5),
        (LIKERT + LIKERT, 5),
        (LIKERT, 1),
        (LIKERT, 12),
        (LIKERT, True),
    ],
)
def test_likert_items_and_scale(items, scale):
    assert likert_errors(items, scale)
    assert likert_errors(LIKERT, 11) == {} and likert_errors(LIKERT, 2) == {}


def test_load_study_refuses_a_broken_preset_and_writes_nothing(tmp_path):
    data = read_preset("fixtures/studies/santorini_agents.json")
    typo = condition("typo", (ME, {"kind": "agent", "agent": "randon"}))
    broken = {**data, "conditions": [*data["conditions"][:1], typo]}
    with pytest.raises(PresetError, match="randon"):
        load_preset(broken)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({**data, "rounds": [{"alternate_workers": 3, "x": 1}]}))
    with pytest.raises(CommandError, match="rounds: Round 1"):
        call_command("load_study", str(path))
    with pytest.raises(PresetError, match="santorini-llm"):  # the LLM configuration is not loaded here
        load_preset(data)
    assert Study.objects.count() == 0


def test_the_santorini_preset_loads_once_its_llm_configuration_exists():
    call_command("loaddata", "fixtures/studies/santorini_llm_agent.json", verbosity=0)
    study, created = load_preset(read_preset("fixtures/studies/santorini_agents.json"))
    assert created and study.game_id == "santorini" and len(study.rounds) == 3
    conditions = {c.key: c for c in study.conditions.all()}
    assert {k: c.partner_summary for k, c in conditions.items()} == {
        "random": "agent random", "llm": "agent santorini-llm", "human": "another participant",
    }
    assert [c.needs_partner for c in conditions.values()] == [False, False, True]


def test_the_santorini_search_levels_preset_offers_conditions_against_search_agents():
    study, created = load_preset(read_preset("fixtures/studies/santorini_search_levels.json"))
    assert created and study.game_id == "santorini" and len(study.rounds) == 3
    conditions = {c.key: c for c in study.conditions.all()}
    assert {k: (c.label, c.agent_seats) for k, c in conditions.items()} == {
        "random": ("Random agent (the control)", {1: "random"}),
        "search-2": ("Search, level 2", {1: "search-2"}),
        "search-4": ("Search, level 4", {1: "search-4"}),
    }
    assert not any(c.needs_partner for c in conditions.values())  # a participant and an agent: nobody waits
