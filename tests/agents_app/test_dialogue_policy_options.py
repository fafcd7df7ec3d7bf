"""A solved dialogue policy holds only under what it was solved under (issue 40): it records the game options and
the instruction set, and steering another match with it is refused, at deploy (the command; creating a match, or
handing a seat, with the guided agent; a study's rounds) and at play time (a turn of a match it does not hold for
falls back to a neutral message, flagged, without asking the model)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from agents_app import selectors
from agents_app import services as agent_services
from agents_app.agents.dialogue import pipeline
from agents_app.agents.dialogue import policy as policies
from agents_app.agents.dialogue.generation import CachedModel, DictCache
from agents_app.agents.dialogue.tree import TreeOptions
from gameplay.engines.registry import create_game
from gameplay.studies.validation import condition_errors
from gameplay.writes import absent_players, services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import llm_config
from tests.support.openai_server import scripted_openai_server

GAME = "fruit_trading"
OPENING = {"openspiel_opening": True}  # the seed's setting: Player 1's opening offer is already sent


def talking(messages, purpose, seed=None):
    return json.dumps({"move": "talk", "message": "Let us see."}), []


def solved_policy(options: dict) -> dict:
    """The policy of a real (tiny) CFR solve of Fruit Trading under ``options``."""
    game = create_game(GAME, options)
    result = pipeline.solve(game, CachedModel("m", talking, DictCache()), solver="cfr",
                            options=TreeOptions(depth=1, llm_seeds=1), iterations=5)
    return result["policy"]


def deploy(agent: str, policy: dict, tmp_path) -> str:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(policy))
    out = io.StringIO()
    call_command("deploy_dialogue_policy", "--policy-file", str(path), "--agent", agent, stdout=out)
    return out.getvalue()


def test_a_solved_policy_records_its_options_and_instruction_set():
    policy = solved_policy(OPENING)
    assert policy["options"] == dict(create_game(GAME, OPENING).options)
    assert policy["options"]["openspiel_opening"] is True and policy["instruction_set"] == "tone"
    policies.validate_policy(policy)


def test_the_policy_is_refused_for_other_options_another_set_or_another_game():
    policy = solved_policy(OPENING)
    dialogue = create_game(GAME).spec.dialogue
    solved_under = dict(create_game(GAME, OPENING).options)
    assert policies.applicability_problem(policy, GAME, solved_under, dialogue) is None
    problem = policies.applicability_problem(policy, GAME, dict(create_game(GAME).options), dialogue)
    assert problem == ("the policy was solved under openspiel_opening=true; this match has "
                       "openspiel_opening=false")
    assert "another set" in policies.applicability_problem(
        {**policy, "instructions": ["monday", "any"], "by_turn": {}, "by_infostate": {}}, GAME, solved_under,
        dialogue)
    assert "no instruction set 'day'" in policies.applicability_problem(
        {**policy, "instruction_set": "day"}, GAME, solved_under, dialogue)
    assert "solved for 'fruit_trading', not 'debate'" in policies.applicability_problem(
        policy, "debate", solved_under, dialogue)
    assert "unknown" in policies.applicability_problem(policy, GAME, None, dialogue)
    with pytest.raises(policies.PolicyError, match="records no game options"):
        policies.validate_policy({k: v for k, v in policy.items() if k != "options"})


@pytest.mark.django_db
def test_deploy_refuses_a_policy_without_valid_options_or_with_a_foreign_set(tmp_path):
    llm_config("guided", "http://127.0.0.1:9/v1")
    policy = solved_policy(OPENING)
    with pytest.raises(CommandError, match="records no game options"):
        deploy("guided", {k: v for k, v in policy.items() if k != "options"}, tmp_path)
    with pytest.raises(CommandError, match="unknown option"):
        deploy("guided", {**policy, "options": {**policy["options"], "colour": "red"}}, tmp_path)
    with pytest.raises(CommandError, match="no instruction set 'day'"):
        deploy("guided", {**policy, "instruction_set": "day"}, tmp_path)
    assert not selectors.agent_config("guided").dialogue_steering  # nothing was saved
    out = deploy("guided", policy, tmp_path)
    assert "solved under options" in out and "openspiel_opening=true" in out


@pytest.mark.django_db
def test_a_match_or_a_seat_with_other_options_is_refused_to_the_guided_agent(tmp_path):
    llm_config("guided", "http://127.0.0.1:9/v1")
    deploy("guided", solved_policy(OPENING), tmp_path)
    seats = [SeatController("human"), SeatController("agent", agent_name="guided")]
    with pytest.raises(services.ServiceError, match="solved under openspiel_opening=true; this match has "
                                                    "openspiel_opening=false"):
        services.create_match(GAME, seats, seed=1, schedule_agents=False)
    services.create_match(GAME, seats, seed=1, options=OPENING, schedule_agents=False)  # as solved: accepted
    people = services.create_match(GAME, [SeatController("human"), SeatController("human")], seed=1,
                                   schedule_agents=False)
    with pytest.raises(services.ServiceError, match="openspiel_opening"):
        absent_players.hand_seat_to_agent(people.pk, 1, "guided", "the person left")


@pytest.mark.django_db
def test_a_study_round_with_other_options_is_refused_for_the_guided_agent(tmp_path):
    llm_config("guided", "http://127.0.0.1:9/v1")
    deploy("guided", solved_policy(OPENING), tmp_path)
    seats = [{"kind": "participant"}, {"kind": "agent", "agent": "guided"}]
    assert condition_errors(GAME, [OPENING, OPENING], seats, {}) == {}
    errors = condition_errors(GAME, [OPENING, {"scenario": "random", **OPENING}], seats, {})
    assert errors["seats"] == [
        "Round 2: agent 'guided' cannot play it: the policy was solved under scenario=\"fixed\"; this match has "
        "scenario=\"random\"."
    ]


@pytest.mark.django_db
def test_a_turn_of_a_match_the_policy_does_not_hold_for_falls_back_without_asking_the_model(tmp_path):
    with scripted_openai_server([]) as model:
        llm_config("guided", model.base_url)
        deploy("guided", solved_policy({}), tmp_path)  # solved without the opening
        state = create_game(GAME, OPENING).new_initial_state(1)  # e.g. a match made before it was deployed
        seat = state.current_seats()[0]
        turn = agent_services.decide("guided", state.seat_view(seat), 7, refusal=lambda action, text: None)
    assert not model.requests
    assert turn.fallback and turn.decision.action_id == "talk"
    assert turn.reason.startswith("policy refused: the policy was solved under openspiel_opening=false")
    assert turn.decision.note == "instruction: none (policy refused)"
