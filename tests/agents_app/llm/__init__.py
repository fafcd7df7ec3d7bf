"""Tests of the pure LLM agent against a real local OpenAI-compatible server; shared builders live here."""

from __future__ import annotations

import random

from agents_app.agents.base import TurnView
from agents_app.agents.llm import LLMAgent, LLMAgentSettings
from agents_app.services import turn_view
from gameplay.engines.api import Action, Observation, Rules, TextAction
from gameplay.engines.registry import create_game

# What a schema-capable, a JSON-mode-only and a plain endpoint can do (LLMAgentSettings.capabilities).
SCHEMA_CAPS = {"json_schema": True, "schema_style": "json_schema", "json_mode": True}
JSON_ONLY_CAPS = {"json_schema": False, "json_mode": True}
PLAIN_CAPS = {"json_schema": False, "json_mode": False}


class SleepRecorder:
    """Stands in for time.sleep: remembers the waits instead of waiting."""

    def __init__(self):
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def settings_for(server, **overrides) -> LLMAgentSettings:
    values = {"name": "test-llm", "base_url": server.base_url, "model": "test-model", "api_key_env": ""}
    values["timeout_s"] = 5.0
    values.update(overrides)
    return LLMAgentSettings(**values)


def agent_for(server, sleep=None, **overrides) -> LLMAgent:
    return LLMAgent(settings_for(server, **overrides), environ={}, sleep=sleep or SleepRecorder())


def santorini_view(seed: int = 3) -> TurnView:
    state = create_game("santorini").new_initial_state(seed)
    return TurnView(
        game_id="santorini",
        seat=0,
        observation=state.observation(0),
        legal_actions=tuple(state.legal_actions(0)),
        text_actions=tuple(state.text_actions(0)),
        rules=state.game.rules,
        seed=seed,
    )


def clue_view(seed: int = 5, *, with_pass: bool = True) -> TurnView:
    """A hand-made view with an open-ended action, like a Codenames clue."""
    return TurnView(
        game_id="wordgame",
        seat=1,
        observation=Observation(1, {}, "Your team's words: river, stone. Give a clue."),
        legal_actions=(Action("pass", "Pass the turn"),) if with_pass else (),
        text_actions=(TextAction("clue", "Give a clue", "word,number", 20),),
        rules=Rules("Give one-word clues.", {"clues": "A clue is one word and a number."}),
        seed=seed,
    )


def three_way_view(seed: int = 9) -> TurnView:
    return TurnView(
        game_id="doors",
        seat=0,
        observation=Observation(0, {}, "Three closed doors."),
        legal_actions=(
            Action("left", "Open the left door"),
            Action("middle", "Open the middle door"),
            Action("right", "Open the right door"),
        ),
        rules=Rules("One door hides a prize."),
        seed=seed,
    )


def last_user_text(body: dict) -> str:
    content = body["messages"][-1]["content"]
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if part.get("type") == "text")
    return content


def hive_midgame_view(moves: int = 24, seed: int = 5) -> TurnView:
    """A Hive position with many legal moves (the expansions on), as an LLM seat would see it."""
    game = create_game("hive", {"mosquito": True, "ladybug": True, "pillbug": True})
    state, rng = game.new_initial_state(seed), random.Random(seed)
    for _ in range(moves):
        seat = state.current_seats()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    seat = state.current_seats()[0]
    history = tuple(f"Player: {r.action_id}" for r in state.log[-8:])
    return turn_view(state.seat_view(seat), 1, history=history)
