"""Issue 42, point 1: a game whose actions have parts (GameSpec.composed_actions) is played part by part, each
request listing and admitting only the legal continuations, so a Fruit Trading basket's hundred offers or a late
Hive position fit a 4,096-token model; and, point 2, a decision records whether the model chose an action the
prompt suggested."""

from __future__ import annotations

import json
import random

from agents_app.agents.base import TurnView
from agents_app.agents.llm import composing, prompts
from agents_app.agents.llm.fitting import budget
from agents_app.agents.llm.suggestions import suggested_actions
from agents_app.agents.llm.tokens import estimate_tokens
from agents_app.services import turn_view
from gameplay.engines.api import Action, Observation, TextAction
from gameplay.engines.registry import create_game
from tests.agents_app.llm import SCHEMA_CAPS, agent_for, hive_midgame_view
from tests.support.openai_server import ScriptedReply, scripted_openai_server


def schema_chooser(pick):
    """A model under a JSON schema that answers ``pick(enum)`` (the texts it must give filled in)."""
    def reply(body: dict) -> ScriptedReply:
        schema = body["response_format"]["json_schema"]["schema"]
        answer = {name: "" for name in schema["required"]}
        answer["action"] = pick(schema["properties"]["action"]["enum"])
        if "text" in answer:
            answer["text"] = "Would you take this?"
        return ScriptedReply.text(answer)
    return reply


def fruit_view(seed: int = 3) -> TurnView:
    state = create_game("fruit_trading").new_initial_state(seed)
    seat = state.current_seats()[0]
    return turn_view(state.seat_view(seat), seed)


def test_a_fruit_trading_offer_is_chosen_in_three_requests_within_a_4096_token_budget():
    view = fruit_view()
    offers = {t.id: t for t in view.text_actions}
    assert len(offers) > 100
    def last_offer(enum):
        return next((e for e in enum if e.startswith("Propose")), enum[-1])

    with scripted_openai_server(schema_chooser(last_offer)) as server:
        agent = agent_for(server, capabilities=SCHEMA_CAPS, context_tokens=4096, max_tokens=256)
        decision = agent.decide(view)
    assert decision.fallback_reason is None
    assert decision.action_id in offers and decision.action_id.startswith("propose:")
    assert decision.text == "Would you take this?"
    enums = [r.body["response_format"]["json_schema"]["schema"]["properties"]["action"]["enum"]
             for r in server.requests]
    assert len(enums) == 3 and all(len(e) <= 40 for e in enums), [len(e) for e in enums]
    parts = offers[decision.action_id].parts  # propose, then what to give, then what to get
    assert parts[0] in enums[0] and "Talk (a message, no move)" in enums[0]
    assert (enums[1][-1], enums[2][-1]) == parts[1:]
    assert "text" in json.dumps(server.requests[2].body["response_format"])  # only the completing step asks text
    assert "text" not in server.requests[1].body["response_format"]["json_schema"]["schema"]["properties"]
    limit = budget(agent.settings)
    assert all(estimate_tokens(r.body["messages"]) <= limit for r in server.requests)
    second = server.requests[1].prompt_text
    assert "Chosen so far: Propose an offer" in second and "\nyou give 1 apple\n" in second
    assert "\nyou get " not in second  # the next step's options come in the next request
    assert [c.details["composing"]["chosen"] for c in decision.calls] == [[], list(parts[:1]), list(parts[:2])]


def test_talk_is_one_step_and_its_text_is_checked_against_the_whole_action():
    view = fruit_view()
    seen = []

    def validator(action_id, text):
        seen.append(action_id)
        return None

    talk = next(t for t in view.text_actions if t.id == "talk")
    with scripted_openai_server(schema_chooser(lambda enum: talk.parts[0])) as server:
        agent = agent_for(server, capabilities=SCHEMA_CAPS)
        agent.text_validator = validator
        decision = agent.decide(view)
    assert (decision.action_id, decision.fallback_reason, len(server.requests)) == ("talk", None, 1)
    assert seen == ["talk"]


def test_a_late_hive_move_is_a_piece_then_a_destination():
    view = hive_midgame_view()
    assert len(view.legal_actions) > 40
    with scripted_openai_server(schema_chooser(lambda enum: enum[0])) as server:
        decision = agent_for(server, capabilities=SCHEMA_CAPS, context_tokens=4096, max_tokens=256).decide(view)
    pieces = {a.parts[0] for a in view.legal_actions}
    first_enum = server.requests[0].body["response_format"]["json_schema"]["schema"]["properties"]["action"]["enum"]
    assert set(first_enum) == pieces and len(pieces) < len(view.legal_actions)
    chosen = next(a for a in view.legal_actions if a.id == decision.action_id)
    assert chosen.parts[0] == first_enum[0] and decision.fallback_reason is None
    assert len(server.requests) == 2


def test_a_part_with_no_alternative_is_taken_without_asking_and_few_actions_are_listed_whole():
    view = TurnView(
        game_id="toy", seat=0, observation=Observation(0, {}, "A toy."),
        legal_actions=tuple(Action(f"go:{i}", f"Go {i}", parts=("Go", f"to {i}")) for i in range(50)),
        text_actions=(),
    )
    step = composing.step(view)
    assert step.options() == ["Go"] and "Go" not in step.completes
    with scripted_openai_server(schema_chooser(lambda enum: enum[7])) as server:
        decision = agent_for(server, capabilities=SCHEMA_CAPS).decide(view)
    assert decision.action_id == "go:7" and len(server.requests) == 1
    assert "Chosen so far: Go." in server.requests[0].prompt_text
    small = TurnView(game_id="toy", seat=0, observation=Observation(0, {}, "A toy."),
                     legal_actions=view.legal_actions[:5])
    assert not composing.applies(small, 40) and composing.applies(view, 40) and not composing.applies(view, 0)
    unparted = TurnView(game_id="toy", seat=0, observation=Observation(0, {}, "A toy."),
                        legal_actions=tuple(Action(f"a{i}", f"A {i}") for i in range(50)))
    assert not composing.applies(unparted, 40)


def test_the_opening_prompt_check_looks_at_the_first_part():
    view = fruit_view()
    with scripted_openai_server([]) as server:
        tiny = agent_for(server, capabilities=SCHEMA_CAPS, context_tokens=1200, max_tokens=256)
        whole = agent_for(server, capabilities=SCHEMA_CAPS, context_tokens=1200, max_tokens=256, max_listed_actions=0)
        assert tiny.prompt_problem(view) is None
        assert whole.prompt_problem(view) is not None  # listed whole, the offers alone overflow it
    assert server.requests == []


def test_suggestions_are_the_ids_shown_as_an_action_in_system_and_user_messages():
    ids = {"a", "b", "wA1 bB2\\"}
    messages = [
        {"role": "system", "content": 'Reply like {"action": "a"}.'},
        {"role": "assistant", "content": '{"action": "b"}'},  # the model's own reply: no suggestion
        {"role": "user", "content": [{"type": "text", "text": json.dumps({"action": "wA1 bB2\\"})}]},
        {"role": "user", "content": '{"action": "not-legal"} ' + json.dumps({"action": prompts.ACTION_PLACEHOLDER})},
    ]
    assert suggested_actions(messages, ids) == ["a", "wA1 bB2\\"]


def test_every_move_records_whether_it_copied_a_suggestion(monkeypatch):
    view = fruit_view()
    listed_first = view.text_actions[0].id
    with scripted_openai_server(schema_chooser(lambda enum: enum[0])) as server:
        decision = agent_for(server, capabilities=SCHEMA_CAPS, max_listed_actions=0).decide(view)
    (call,) = decision.calls
    assert call.details["suggested_actions"] == [] and call.details["copied_suggestion"] is False
    assert decision.action_id == listed_first
    # A prompt that shows an example (as before issue 42) and a model that copies it: the record says so.
    rng = random.Random(1)
    example = rng.choice([a.id for a in view.text_actions])
    monkeypatch.setattr(prompts, "move_request", lambda: f'Reply like {json.dumps({"action": example})}.')
    with scripted_openai_server(schema_chooser(lambda enum: example)) as server:
        copied = agent_for(server, capabilities=SCHEMA_CAPS, max_listed_actions=0).decide(view)
    assert copied.action_id == example
    assert copied.calls[-1].details["suggested_actions"] == [example]
    assert copied.calls[-1].details["copied_suggestion"] is True


def test_open_ended_options_of_a_step_carry_their_hint_and_length():
    view = TurnView(
        game_id="toy", seat=0, observation=Observation(0, {}, "A toy."), legal_actions=(),
        text_actions=tuple(TextAction(f"say:{i}", f"Say {i}", "a line", 50, parts=("Say", f"number {i}"))
                           for i in range(45)),
    )
    step = composing.step(view, ("Say",))
    assert [t.max_length for t in step.view.text_actions] == [50] * 45
    assert step.completes["number 3"].id == "say:3"
