"""What an LLM agent is shown never carries another seat's secrets, for every registered game.

The prompts are built exactly as the agent builds them (system prompt, turn prompt with the observation and
the labelled actions, the Chain-of-Thought prompt, the RAP prompts with who acts next) from the seat's view that the
platform hands to agents, along seeded random playouts. Secrets a prompt could carry without naming them (derived
from the full state) are the subject of test_derived_leaks.py. A secret is any string a state declares in ``secrets()``
for one seat only.
"""

from __future__ import annotations

import random

import pytest

from agents_app.agents.dialogue import prompts as dialogue_prompts
from agents_app.agents.llm import prompts, rap_prompts
from agents_app.services import turn_view
from gameplay.engines.registry import GAMES
from gameplay.management.commands.bench_play import random_move
from tests.agents_app.prompt_leaks_support import foreign_secrets

PLAYOUTS = 4
FAST = {"hive": {"max_turns": 30}, "gnomes": {"turn_cap": 40}}


def prompt_texts(view, dialogue=None) -> list[str]:
    texts = [prompts.system_prompt(view, explain_limit=3), prompts.turn_prompt(view), prompts.cot_prompt(view)]
    if dialogue is not None:  # the solver-guided agent and its control ask with the solver's own turn prompt
        for instruction_set in dialogue.instruction_sets:
            for instruction in instruction_set.instructions:
                messages = dialogue_prompts.build_turn_messages(view, instruction_set.text(instruction))
                texts.append(str(messages))
    labels = [a.label for a in view.legal_actions][:3]
    if labels:
        texts.append(str(rap_prompts.choice_messages(view, view.observation.text, labels, None)))
        texts.append(str(rap_prompts.evaluate_messages(view, view.observation.text, labels[0], None)))
    for action in view.legal_actions[:3]:  # RAP's world model, told who acts next where the platform says so
        actor = view.next_actors.get(action.id)
        texts.append(str(rap_prompts.predict_messages(view, view.observation.text, action.label, None, actor)))
    return texts


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_agent_prompts_carry_no_other_seats_secret(game_id):
    game = GAMES[game_id](FAST.get(game_id, {}))
    checked = 0
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            for seat in state.current_seats():
                view = turn_view(state.seat_view(seat, with_next_actors=True), seed)
                hidden = foreign_secrets(state, seat)
                for text in prompt_texts(view, game.spec.dialogue):
                    leaked = [value for value in hidden if value in text]
                    assert not leaked, f"{game_id}: seat {seat}'s prompt carries another seat's secret {leaked[:1]}"
                checked += 1
            if state.awaiting_verdict():  # a judged game's last message is in: its rule stands in for the judge
                state.apply_verdict(state.fallback_verdict(), "rule")
                continue
            seat = rng.choice(state.current_seats())
            random_move(state, seat, rng)
    assert checked > 0


def test_the_check_catches_a_prompt_that_shows_another_seats_secret():
    from dataclasses import replace

    from gameplay.engines.api import Observation

    game = GAMES["gnomes"]({})
    state = game.new_initial_state(1)
    view = turn_view(state.seat_view(0), 1)
    secret = foreign_secrets(state, 0)[0]
    leaky = replace(view, observation=Observation(0, view.observation.data, view.observation.text + secret))
    assert any(secret in text for text in prompt_texts(leaky))
