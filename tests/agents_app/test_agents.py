"""Pure agents (agents_app.agents) and the fallback wrapper (agents_app.services.decide)."""

from __future__ import annotations

import logging
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents_app import services as agent_services
from agents_app.agents import registry
from agents_app.agents.base import Agent, Decision, TurnView
from agents_app.agents.random_agent import RandomAgent
from gameplay.engines.api import Observation, TextAction
from gameplay.engines.registry import create_game
from gameplay.engines.seat_view import refusal_checker

ROOT = Path(__file__).resolve().parents[2]


def midgame_state(seed: int = 3, plies: int = 9):
    """A Santorini state a few random actions in (past the placements)."""
    game = create_game("santorini")
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        seat = state.current_seats()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    assert not state.is_terminal()
    return state


def view_of(state, seed: int) -> TurnView:
    seat = state.current_seats()[0]
    return agent_services.turn_view(state.seat_view(seat), seed)


# --- RandomAgent -------------------------------------------------------------


def test_random_agent_is_deterministic_for_a_seed():
    state = midgame_state()
    view = view_of(state, seed=123)
    first = RandomAgent().decide(view)
    assert all(RandomAgent().decide(view) == first for _ in range(5))


def test_random_agent_uses_the_seed():
    view = view_of(midgame_state(), seed=0)
    assert len(view.legal_actions) > 3
    chosen = {RandomAgent().decide(TurnView(**{**view.__dict__, "seed": s})).action_id for s in range(40)}
    assert len(chosen) > 3


def test_random_agent_is_pure():
    state = midgame_state()
    before_state = state.to_json()
    view = view_of(state, seed=5)
    random.seed(99)
    global_rng_before = random.getstate()
    RandomAgent().decide(view)
    assert random.getstate() == global_rng_before, "the agent touched the global random module"
    assert state.to_json() == before_state


def test_random_agent_only_returns_legal_ids():
    for seed in range(30):
        state = midgame_state(seed=seed % 5, plies=4 + seed % 7)
        view = view_of(state, seed=seed)
        decision = RandomAgent().decide(view)
        assert isinstance(decision, Decision)
        assert decision.action_id in {a.id for a in state.legal_actions(view.seat)}
        assert decision.text is None


def _text_only_view(hint: str, seed: int, max_length: int = 200) -> TurnView:
    return TurnView(
        game_id="test",
        seat=0,
        observation=Observation(0, {}, "Give a clue."),
        legal_actions=(),
        text_actions=(TextAction("clue", "Give a clue", hint=hint, max_length=max_length),),
        seed=seed,
    )


def test_random_agent_uses_text_actions_with_short_text():
    texts = set()
    for seed in range(20):
        decision = RandomAgent().decide(_text_only_view("say something", seed))
        assert decision.action_id == "clue"
        assert isinstance(decision.text, str) and decision.text.strip()
        assert len(decision.text) <= 40
        texts.add(decision.text)
    assert len(texts) > 1


def test_random_agent_replaces_a_text_the_engine_refuses_and_keeps_an_accepted_one():
    said: set[str] = set()

    def no_repeats(action_id, text):  # an engine refusing what was said before (Who is Spy's descriptions)
        return "already given" if text in said else None

    for seed in range(30):
        agent = RandomAgent()
        agent.text_validator = no_repeats
        decision = agent.decide(_text_only_view("say something", seed))
        assert decision.text not in said and len(decision.text) <= 40
        said.add(decision.text)
    unchecked = RandomAgent().decide(_text_only_view("say something", 3))
    checked = RandomAgent()
    checked.text_validator = lambda action_id, text: None
    assert checked.decide(_text_only_view("say something", 3)) == unchecked  # accepted texts are not replaced


def test_random_agent_honours_the_word_number_hint():
    for seed in range(20):
        decision = RandomAgent().decide(_text_only_view("word, number", seed))
        assert re.fullmatch(r"[a-z]+,[1-9]", decision.text), decision.text


def test_random_agent_refuses_when_nothing_is_legal():
    view = TurnView("test", 0, Observation(0, {}, ""), legal_actions=())
    with pytest.raises(ValueError):
        RandomAgent().decide(view)


def test_registry_knows_random_and_rejects_unknown_names():
    assert "random" in registry.agent_names()
    assert isinstance(registry.create_agent("random"), RandomAgent)
    with pytest.raises(registry.UnknownAgentError):
        registry.create_agent("no-such-agent")


# --- decide() and its fallback ---------------------------------------------


class RaisingAgent(Agent):
    name = "test-raises"

    def decide(self, view):
        raise RuntimeError("kaboom")


class IllegalAgent(Agent):
    name = "test-illegal"

    def decide(self, view):
        return Decision(action_id="teleport:z9")


class WrongTypeAgent(Agent):
    name = "test-wrong-type"

    def decide(self, view):
        return view.legal_actions[0].id  # a bare string, not a Decision


class FirstLegalAgent(Agent):
    name = "test-first"

    def decide(self, view):
        return Decision(action_id=view.legal_actions[-1].id, message="hi")


@pytest.fixture
def bad_agents(monkeypatch):
    for cls in (RaisingAgent, IllegalAgent, WrongTypeAgent, FirstLegalAgent):
        monkeypatch.setitem(registry.AGENTS, cls.name, cls)


def test_decide_passes_a_good_decision_through(bad_agents, caplog):
    state = midgame_state()
    seat = state.current_seats()[0]
    with caplog.at_level(logging.WARNING, logger="agents_app.services"):
        turn = agent_services.decide("test-first", state.seat_view(seat), 1, refusal=refusal_checker(state, seat))
    assert turn.fallback is False
    assert turn.reason == ""
    assert turn.decision == Decision(action_id=state.legal_actions(seat)[-1].id, message="hi")
    assert turn.think_ms >= 0
    assert not [r for r in caplog.records if r.name == "agents_app.services"]


@pytest.mark.parametrize(
    "agent_name, reason_part",
    [
        ("test-raises", "RuntimeError: kaboom"),
        ("test-illegal", "illegal action 'teleport:z9'"),
        ("test-wrong-type", "not a Decision"),
        ("never-registered", "UnknownAgentError"),
    ],
)
def test_decide_falls_back_to_a_random_legal_action(bad_agents, caplog, agent_name, reason_part):
    state = midgame_state()
    seat = state.current_seats()[0]
    before = state.to_json()
    with caplog.at_level(logging.WARNING, logger="agents_app.services"):
        turn = agent_services.decide(agent_name, state.seat_view(seat), 77, refusal=refusal_checker(state, seat))

    assert turn.fallback is True
    assert reason_part in turn.reason
    assert isinstance(turn.decision, Decision)
    assert turn.decision.action_id in {a.id for a in state.legal_actions(seat)}
    assert state.to_json() == before

    warnings = [r for r in caplog.records if r.name == "agents_app.services" and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert agent_name in message
    assert "falling back" in message
    assert reason_part in message


def test_fallback_is_deterministic_for_a_seed(bad_agents):
    state = midgame_state()
    seat = state.current_seats()[0]
    refusal = refusal_checker(state, seat)
    runs = {agent_services.decide("test-raises", state.seat_view(seat), 31, refusal=refusal).decision for _ in range(3)}
    assert len(runs) == 1


def test_decision_seed_depends_on_seed_version_and_seat():
    base = agent_services.decision_seed(7, 3, 0)
    assert base == agent_services.decision_seed(7, 3, 0)
    others = {agent_services.decision_seed(8, 3, 0), agent_services.decision_seed(7, 4, 0),
              agent_services.decision_seed(7, 3, 1)}
    assert base not in others
    assert len(others) == 3


# --- purity of the agent and engine packages ---------------------------------


def test_agents_and_engines_do_not_import_django():
    code = (
        "import sys, agents_app.agents.random_agent, agents_app.agents.registry, gameplay.engines.registry; "
        "bad = sorted(m for m in sys.modules if m.startswith(('django', 'channels', 'celery'))); "
        "assert not bad, bad"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
