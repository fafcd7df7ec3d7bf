"""Matches between built-in agents played in this process, for measurements (``bench_search``, ``search_ladder``):
no database, no worker, each decision made exactly as on the platform, from the seat's view (``services.turn_view``)
and, for a search agent, a sample of the seat's information set drawn with the decision's seed.

An offline harness: it referees games it creates itself (fresh states from a seed), never a match's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from agents_app.agents.registry import create_agent
from agents_app.services import decision_seed, turn_view
from gameplay.engines.api import EngineError
from gameplay.engines.registry import create_game


@dataclass
class ArenaResult:
    scores: list[float]
    actions: int
    teams: list[int] = field(default_factory=list)  # the team of each seat at the end (State.result_teams)
    think_ms: dict[int, list[float]] = field(default_factory=dict)  # seat -> one entry per decision
    fallbacks: int = 0


def play(game_id: str, agent_names: Sequence[str], seed: int, options: dict | None = None) -> ArenaResult:
    """Play one seeded match of ``game_id`` between the named built-in agents (one per seat, in seat order)."""
    game = create_game(game_id, options, num_seats=len(agent_names))
    agents = [create_agent(name) for name in agent_names]
    fresh = game.new_initial_state(seed)
    result = ArenaResult(scores=[], actions=0, think_ms={seat: [] for seat in range(len(agents))})
    cap = game.max_actions()
    turns = random.Random(f"arena:{seed}")  # who of several seats acting at once goes first (Pit's open market)
    while not fresh.is_terminal() and result.actions < cap:
        if fresh.awaiting_verdict():
            fresh.apply_verdict(fresh.fallback_verdict(), "rule")
            continue
        seat = turns.choice(fresh.current_seats())
        agent = agents[seat]
        seed_here = decision_seed(seed, result.actions, seat)
        started = time.perf_counter()
        view = turn_view(fresh.seat_view(seat), seed_here)
        if agent.wants_search_root and game.spec.samples_information_sets:
            view = replace(view, search_root=fresh.sample_information_state(seat, random.Random(seed_here)))
        decision = agent.decide(view)
        result.think_ms[seat].append((time.perf_counter() - started) * 1000)
        try:
            fresh.apply_action(seat, decision.action_id, decision.text)
        except EngineError:  # as on the platform, a refused choice falls back to a random legal one
            result.fallbacks += 1
            actions = fresh.legal_actions(seat)
            fresh.apply_action(seat, random.Random(seed_here).choice(actions).id)
        result.actions += 1
    result.scores = fresh.scores()
    result.teams = fresh.result_teams()
    return result
