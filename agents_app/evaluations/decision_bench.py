"""Playing an agent's decisions on the engine alone: what bench_agent prints and check_agent --game measures.

``play_decisions`` seats the agent in seeded matches of any registered game (seat ``k mod seats`` in match ``k``) and
plays until it has made the asked number of decisions. Every other seat is a stand-in: a random legal action, or,
when it has only open-ended actions (a dialogue message, a Who is Spy description, a Codenames clue), the engine's
own example text for one (``TextAction.example``, which the engine always accepts). In a simultaneous step the agent
decides whenever its seat is among the seats to act; the others then act at random. A match that ends starts the
next one; a judged game waiting for its verdict gets the game's rule verdict; a state where nobody can act ends that
match. Nothing here touches the database: the positions are the engine's, the agent is whatever the caller built.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents_app.agents.base import Agent, Decision
from agents_app.services import decision_seed, turn_view
from gameplay.engines.api import EngineError, State
from gameplay.engines.registry import create_game
from gameplay.engines.seat_view import refusal_checker

VALID, CORRECTED, FALLBACK = "valid", "corrected", "fallback"
# A match longer than this (stand-ins only ever moving, or a game that never ends under random play) is abandoned
# for the next one: the measurement wants the agent's decisions, not a stand-in's endless game.
MAX_STEPS_PER_MATCH = 5000
# Matches in a row in which the agent got no decision at all: the game never gives its seat one; stop there.
MAX_IDLE_MATCHES = 3


@dataclass(frozen=True)
class DecisionRecord:
    """One decision of the agent: how it went and what it cost."""

    outcome: str  # VALID (at the first reply), CORRECTED (valid after corrections) or FALLBACK (a random move)
    think_s: float  # wall time of Agent.decide
    calls: int
    prompt_tokens: int  # summed over the decision's calls, as the server reported them (0 where it did not)
    completion_tokens: int
    largest_prompt_tokens: int | None  # the largest prompt of one call; None when the server reported none
    formats: tuple[str, ...] = ()  # the reply format each move or correction request asked for
    reason: str = ""  # why it fell back, when it did
    # The move's record (agents_app.agents.llm.suggestions): whether it was an action the prompt suggested, and the
    # first action listed; None where the agent records neither (a fallback, an agent without a model).
    copied: bool | None = None
    first_listed: bool | None = None


@dataclass(frozen=True)
class BenchRun:
    game_id: str
    records: tuple[DecisionRecord, ...]
    matches: int

    def summary(self) -> dict[str, Any]:
        """The run's numbers (shares, means, think-time median, p95 and max, the largest prompt)."""
        n = len(self.records)
        outcomes = Counter(r.outcome for r in self.records)
        think = [r.think_s for r in self.records]
        prompts = [r.largest_prompt_tokens for r in self.records if r.largest_prompt_tokens is not None]
        formats = Counter(f for r in self.records for f in r.formats)
        recorded = [r for r in self.records if r.copied is not None]
        return {
            "game": self.game_id,
            "decisions": n,
            "matches": self.matches,
            "valid": outcomes[VALID] / n if n else 0.0,
            "corrected": outcomes[CORRECTED] / n if n else 0.0,
            "fallback": outcomes[FALLBACK] / n if n else 0.0,
            "calls_per_decision": statistics.mean(r.calls for r in self.records) if n else 0.0,
            "prompt_tokens_per_decision": statistics.mean(r.prompt_tokens for r in self.records) if n else 0.0,
            "completion_tokens_per_decision": statistics.mean(r.completion_tokens for r in self.records) if n else 0.0,
            "think_s_median": statistics.median(think) if n else 0.0,
            "think_s_p95": percentile(think, 95) if n else 0.0,
            "think_s_max": max(think) if n else 0.0,
            "largest_prompt_tokens": max(prompts) if prompts else None,
            "reply_formats": dict(formats),
            # Shares of the moves whose record says so (fallbacks aside): copied from the prompt, the first listed.
            "copied_suggestion": sum(bool(r.copied) for r in recorded) / len(recorded) if recorded else None,
            "first_listed": sum(bool(r.first_listed) for r in recorded) / len(recorded) if recorded else None,
        }


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least q% of the values at or below it. With a
    handful of decisions p95 is then the slowest one, which is what a deadline check should compare, not an
    interpolation below it."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def play_decisions(
    agent: Agent,
    game_id: str,
    decisions: int,
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    matches: int | None = None,
) -> BenchRun:
    """Let ``agent`` make ``decisions`` decisions of ``game_id`` (fewer only if the game stops giving it any); with
    ``matches``, every decision of that many whole matches instead."""
    if decisions < 1 and not matches:
        raise ValueError("decisions must be at least 1")
    if matches is not None:
        decisions = 10**9  # as many as the matches hold
    rng = random.Random(seed)
    records: list[DecisionRecord] = []
    match = idle = 0
    while len(records) < decisions and idle < MAX_IDLE_MATCHES and (matches is None or match < matches):
        game = create_game(game_id, options)
        state = game.new_initial_state(seed + match)
        before = len(records)
        _play_match(agent, state, match % game.num_seats, seed + match, rng, records, decisions)
        match += 1
        idle = 0 if len(records) > before else idle + 1
    return BenchRun(game_id=game_id, records=tuple(records), matches=match)


def _play_match(
    agent: Agent, state: State, agent_seat: int, match_seed: int, rng: random.Random,
    records: list[DecisionRecord], wanted: int,
) -> None:
    for _ in range(MAX_STEPS_PER_MATCH):
        if state.is_terminal() or len(records) >= wanted:
            return
        seats = state.current_seats()
        if not seats:
            if state.awaiting_verdict():  # a judged game: the rule's verdict, as when no judge model answers
                state.apply_verdict(state.fallback_verdict(), "rule")
                continue
            return  # nobody can act: this match is over for the bench
        if agent_seat in seats:
            moves = len(state.log)
            records.append(_agent_decides(agent, state, agent_seat, match_seed, rng))
            if len(state.log) == moves:
                return  # neither the agent's move nor a stand-in's could be applied: the seat is stuck
        elif not _stand_in(state, seats[0], rng):
            return


def _agent_decides(agent: Agent, state: State, seat: int, match_seed: int, rng: random.Random) -> DecisionRecord:
    view = turn_view(
        state.seat_view(seat, with_next_actors=agent.wants_next_actors),
        decision_seed(match_seed, len(state.log), seat),
    )
    # The engine's own answer to a proposed text, as the platform hands it to an agent (services.decide).
    agent.text_validator = refusal_checker(state, seat)
    started = time.monotonic()
    try:
        decision = agent.decide(view)
    except Exception as err:  # an agent that raises falls back on the platform too; measure it as such
        decision = err
    think = time.monotonic() - started
    if isinstance(decision, Decision):
        calls, reason = tuple(decision.calls), decision.fallback_reason or ""
        # Its choice, or the random move it fell back to by itself (Decision.fallback_reason).
        refused = _apply(state, seat, decision)
        if refused and not reason:
            reason = f"refused by the engine: {refused}"
        applied = refused is None
    else:
        calls, applied = (), False
        reason = f"{type(decision).__name__}: {decision}" if isinstance(decision, Exception) else "not a Decision"
    if not applied:
        _stand_in(state, seat, rng)  # nothing the agent chose was applied: a random move, as the platform's fallback
    corrected = any(c.purpose == "correction" for c in calls)
    prompts = [c.prompt_tokens for c in calls if c.prompt_tokens is not None]
    move = next((c.details for c in reversed(calls) if c.parsed_action and c.details
                 and "copied_suggestion" in c.details), None) if not reason else None
    return DecisionRecord(
        outcome=FALLBACK if reason else CORRECTED if corrected else VALID,
        think_s=think,
        calls=len(calls),
        prompt_tokens=sum(prompts),
        completion_tokens=sum(c.completion_tokens or 0 for c in calls),
        largest_prompt_tokens=max(prompts) if prompts else None,
        formats=tuple((c.details or {}).get("reply_format", "-") for c in calls
                      if c.purpose in ("move", "correction")),
        reason=reason,
        copied=None if move is None else bool(move["copied_suggestion"]),
        first_listed=None if move is None else bool(move.get("first_listed")),
    )


def _apply(state: State, seat: int, decision: Decision) -> str | None:
    """Apply the agent's decision; the engine's refusal, or None when it was applied."""
    try:
        state.apply_action(seat, decision.action_id, decision.text)
    except EngineError as err:
        return str(err) or type(err).__name__
    return None


def _stand_in(state: State, seat: int, rng: random.Random) -> bool:
    """A random legal action for ``seat``, or an open-ended action with the engine's example text; False when the
    seat has nothing it can do."""
    legal = state.legal_actions(seat)
    if legal:
        state.apply_action(seat, rng.choice(legal).id)
        return True
    texts = [t for t in state.text_actions(seat) if t.example]
    if texts:
        spec = rng.choice(texts)
        state.apply_action(seat, spec.id, spec.example)
        return True
    return False
