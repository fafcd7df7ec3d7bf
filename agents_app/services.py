"""Running agents for match seats: build the seat's view, ask the agent, fall back if it fails."""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass

from agents_app.agents.base import Decision, TurnView
from agents_app.agents.random_agent import RandomAgent
from agents_app.agents.registry import AGENTS, create_agent
from gameplay.engines.api import State

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class AgentTurn:
    decision: Decision
    fallback: bool
    reason: str = ""
    think_ms: int = 0


def decision_seed(match_seed: int, version: int, seat: int) -> int:
    """A per-decision seed: the same match seed gives the same moves, run after run."""
    return (match_seed * 1_000_003 + version * 7_919 + seat * 104_729) % (2**63)


def turn_view(game_id: str, state: State, seat: int, seed: int, *, with_image: bool = False) -> TurnView:
    """The seat's view for one decision; with_image adds the game's picture of that same observation."""
    observation = state.observation(seat)
    return TurnView(
        game_id=game_id,
        seat=seat,
        observation=observation,
        legal_actions=tuple(state.legal_actions(seat)),
        text_actions=tuple(state.text_actions(seat)),
        rules=state.game.rules,
        seed=seed,
        image=_image_of(state, observation) if with_image else None,
    )


def _image_of(state: State, observation) -> bytes | None:
    try:
        return state.game.observation_image(observation)
    except Exception:  # a picture is a nicety: never stall a match over it
        logger.exception("observation_image failed for %s", state.game.spec.id)
        return None


def decide(agent_name: str, game_id: str, state: State, seat: int, seed: int) -> AgentTurn:
    """Ask the named agent; if it raises or proposes an illegal action, a random legal one is used (logged)."""
    wants_image = bool(getattr(AGENTS.get(agent_name), "accepts_images", False))
    view = turn_view(game_id, state, seat, seed, with_image=wants_image)
    started = time.monotonic()
    try:
        decision = create_agent(agent_name).decide(view)
        problem = _problem_with(decision, view, state, seat)
    except Exception as err:  # an agent must never stall a match
        decision, problem = None, f"{type(err).__name__}: {err}"
    think_ms = int((time.monotonic() - started) * 1000)
    if problem is None:
        return AgentTurn(decision, fallback=False, think_ms=think_ms)
    logger.warning("agent %s failed for seat %s (%s); falling back to a random action", agent_name, seat, problem)
    fallback = RandomAgent().decide(TurnView(**{**view.__dict__, "seed": random.Random(seed).getrandbits(62)}))
    return AgentTurn(fallback, fallback=True, reason=problem, think_ms=think_ms)


def _problem_with(decision: Decision, view: TurnView, state: State, seat: int) -> str | None:
    if not isinstance(decision, Decision):
        return f"agent returned {type(decision).__name__}, not a Decision"
    if decision.action_id in {a.id for a in view.legal_actions}:
        return None
    if decision.action_id in {t.id for t in view.text_actions}:
        trial = state.clone()
        try:
            trial.apply_action(seat, decision.action_id, decision.text)
        except Exception as err:
            return f"text rejected: {err}"
        return None
    return f"illegal action {decision.action_id!r}"
