"""The solver-guided dialogue agent and its unguided control, against the scripted OpenAI-compatible server.

The views here are built by hand for a small dialogue spec (a tone set), so the agent's own logic is what is
tested: which instruction it picks (the policy's per-turn and per-information-state views, seeded), that it is in
the prompt and on record in Decision.note, corrections and the neutral fallback. The platform path (selection,
a match against a person) is in test_dialogue_agent_platform.py.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from agents_app.agents.base import TurnView
from agents_app.agents.dialogue import policy as policies
from agents_app.agents.dialogue.agent import MESSAGE_INDEX_KEY, OPTIONS_KEY, DialogueAgent
from agents_app.agents.llm import LLMAgentSettings
from gameplay.engines.api import Observation, Rules, TextAction
from gameplay.engines.dialogue import ANY, DialogueSpec, InstructionSet
from tests.support.openai_server import scripted_openai_server

TONES = InstructionSet("tone", ("calm", "assertive", "submissive", ANY), "Write your message in a {} tone.")
SPEC = DialogueSpec(instruction_sets=(TONES,), payoff_bounds=(-20.0, 20.0), max_message_length=300)
OPTIONS = {"scenario": "fixed", "openspiel_opening": True}  # the toy match's options, as the platform passes them
OBSERVATION = "You are Player 1. Your basket: apple 1, banana 2. Thread: (no messages yet)."


def policy(by_turn=None, by_infostate=None) -> dict:
    return {
        "game": "toy_dialogue",
        "options": dict(OPTIONS),
        "instruction_set": "tone",
        "instructions": list(TONES.instructions),
        "by_turn": by_turn if by_turn is not None else {"0:0": {"assertive": 1.0}},
        "by_infostate": by_infostate or {},
    }


def view(seed: int = 5, index: int = 0, text: str = OBSERVATION, seat: int = 0, options=OPTIONS) -> TurnView:
    return TurnView(
        game_id="toy_dialogue",
        seat=seat,
        observation=Observation(seat, {}, text),
        legal_actions=(),
        text_actions=(
            TextAction("talk", "Just talk", "your message", 300),
            TextAction("propose:banana-for-kiwi", "Offer 1 banana for 1 kiwi", "your message", 300),
            TextAction("walk_away", "Walk away", "your message", 300),
        ),
        rules=Rules("Trade fruit by message.", {"Payoff": "What you get minus what you give."}),
        seed=seed,
        extra={MESSAGE_INDEX_KEY: index, OPTIONS_KEY: dict(options)},
    )


def agent(server, steering: str, pol=None, validator=None) -> DialogueAgent:
    settings = LLMAgentSettings(name="guided", base_url=server.base_url, model="m", api_key_env="", timeout_s=5.0,
                                retries=1, http_retries=0)
    return DialogueAgent(settings, steering=steering, policy=pol, environ={}, sleep=lambda s: None,
                         text_validator=validator, dialogue_for=lambda game_id: SPEC)


def move(action: str = "talk", text: str = "Hello there, shall we trade?") -> str:
    return json.dumps({"move": action, "message": text})


def test_solver_mode_follows_the_per_turn_policy_and_records_the_instruction():
    with scripted_openai_server([move("propose:banana-for-kiwi", "One banana for a kiwi. Take it.")]) as server:
        decision = agent(server, "solver", policy()).decide(view())
    assert decision.action_id == "propose:banana-for-kiwi"
    assert decision.text == "One banana for a kiwi. Take it."
    assert decision.note == "instruction: assertive (policy: turn)"
    assert decision.fallback_reason is None
    prompt = server.requests[0].prompt_text
    assert "Instruction for your message: Write your message in a assertive tone." in prompt


def test_solver_mode_samples_in_proportion_to_the_policy_and_replays_by_seed():
    mixed = policy({"0:0": {"calm": 0.25, "assertive": 0.75}})
    picks = Counter()
    with scripted_openai_server([]) as server:
        guided = agent(server, "solver", mixed)
        for seed in range(200):
            picks[guided.choose_instruction(view(seed=seed), SPEC)[0]] += 1
        again = [guided.choose_instruction(view(seed=s), SPEC)[0] for s in range(20)]
        first = [guided.choose_instruction(view(seed=s), SPEC)[0] for s in range(20)]
    assert set(picks) == {"calm", "assertive"}
    assert 110 <= picks["assertive"] <= 190  # 150 expected
    assert again == first


def test_an_exact_information_state_wins_over_the_turn_view_and_unknown_turns_are_uniform():
    exact = {policies.infostate_key(0, OBSERVATION): {"submissive": 1.0}}
    with scripted_openai_server([move(), move()]) as server:
        guided = agent(server, "solver", policy(by_infostate=exact))
        assert guided.decide(view()).note == "instruction: submissive (policy: infostate)"
        assert guided.decide(view(index=5, text="another thread")).note.endswith("(policy: uniform)")


def test_the_control_always_writes_with_the_any_instruction():
    with scripted_openai_server([move()] * 3) as server:
        control = agent(server, "any")
        notes = {control.decide(view(seed=s, index=s)).note for s in range(3)}
    assert notes == {"instruction: any (control)"}
    assert TONES.any_text in server.requests[0].prompt_text


def test_a_bad_reply_is_corrected_then_accepted():
    with scripted_openai_server(["not json at all", move(text="Fine, let us talk.")]) as server:
        decision = agent(server, "any").decide(view())
    assert (decision.action_id, decision.text, decision.fallback_reason) == ("talk", "Fine, let us talk.", None)
    assert [c.purpose for c in decision.calls] == ["move", "correction"]
    assert "assertive" not in server.requests[1].prompt_text
    assert TONES.any_text in server.requests[1].prompt_text  # the correction keeps the instruction


def test_replies_that_stay_bad_fall_back_to_a_neutral_talk_with_the_instruction_on_record():
    with scripted_openai_server(["nonsense", move("accept", "yes")]) as server:
        decision = agent(server, "solver", policy()).decide(view())
    assert decision.action_id == "talk"
    assert decision.text and "think" in decision.text
    assert decision.fallback_reason and "no valid reply after 1 correction" in decision.fallback_reason
    assert [c.purpose for c in decision.calls] == ["move", "correction"]
    assert decision.note == "instruction: assertive (policy: turn)"


def test_a_message_the_engine_refuses_is_corrected_with_its_reason():
    refused = []

    def validator(action_id, text):
        if "banana" in text:
            refused.append(text)
            return "no fruit talk in this test"
        return None

    with scripted_openai_server([move(text="a banana?"), move(text="How are you?")]) as server:
        decision = agent(server, "any", validator=validator).decide(view())
    assert decision.text == "How are you?" and refused == ["a banana?"]
    assert "no fruit talk in this test" in server.requests[1].prompt_text


def test_a_game_without_dialogue_is_played_as_the_plain_llm_agent():
    with scripted_openai_server([json.dumps({"action": "talk", "text": "hi"})]) as server:
        plain = agent(server, "any")
        plain._dialogue_for = lambda game_id: None
        decision = plain.decide(view())
    assert (decision.action_id, decision.text, decision.note, decision.fallback_reason) == ("talk", "hi", None, None)
    assert "Instruction for your message" not in server.requests[0].prompt_text


def test_solver_mode_needs_a_valid_policy():
    with scripted_openai_server([]) as server:
        with pytest.raises(ValueError):
            agent(server, "solver", None)
        with pytest.raises(policies.PolicyError):
            agent(server, "solver", {**policy(), "by_turn": {"0:0": {"calm": 0.5}}})
        with pytest.raises(ValueError):
            agent(server, "tone")

