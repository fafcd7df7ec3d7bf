"""Reads for agent turns: a live match as its agent seats may see it, seat by seat, never as a state.

agents_app plays agent seats through this module only. It gets a seat's ``SeatView`` (the engine's one view of a seat)
and a refusal checker (would the engine take this action or text now, and if not why): the State of a live match stays
here, in the match layer. Whose turn it is, whether the chat is open to a seat and a judge's question are public
facts of the table and are answered here too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gameplay.capabilities.live import plays_live
from gameplay.engines.seat_view import RefusalChecker, SeatView, refusal_checker
from gameplay.models import Match
from gameplay.reads.selectors import state_of


@dataclass(frozen=True)
class AgentSeat:
    """One agent seat's decision: its view and the engine's referee for what it proposes."""

    view: SeatView
    refusal: RefusalChecker
    # A state drawn from the seat's information set (State.sample_information_state), for a search agent; None when
    # not asked for or the game cannot sample one. Never the match's own state: the engine's conformance shows a
    # sample depends only on what the seat has seen.
    search_root: object = None


class AgentTable:
    """A live match read once for its agent seats. It hands out seat views and referees, never its state."""

    def __init__(self, match: Match):
        self.match = match
        self.__state = state_of(match)
        self.game = self.__state.game  # the immutable game and its options (no state): seat names, chat, teams

    def to_act(self) -> tuple[int, ...]:
        """The seats acting now (public); () once the game is over."""
        state = self.__state
        return () if state.is_terminal() else tuple(state.current_seats())

    def seat(self, seat: int, *, with_next_actors: bool = False, sample_seed: int | None = None) -> AgentSeat:
        """Seat ``seat``'s view (with who acts after each legal action where that is public) and its referee; with
        ``sample_seed``, also a sample of the seat's information set drawn with that seed, where the game can draw
        one (``GameSpec.samples_information_sets``)."""
        state = self.__state
        root = None
        if sample_seed is not None and state.game.spec.samples_information_sets:
            root = state.sample_information_state(seat, random.Random(sample_seed))
        return AgentSeat(state.seat_view(seat, with_next_actors=with_next_actors), refusal_checker(state, seat), root)


def late_decision_lands(match: Match, seat: int, action_id: str) -> bool:
    """Whether a decision an agent made for an earlier version still counts now: only in a live match of a realtime
    game (gameplay.live, whose clock moves on while an agent decides), if the seat is to choose and the action legal."""
    state = state_of(match)
    if not plays_live(state.game, match.seats.all()) or seat not in state.current_seats():
        return False
    return action_id in {a.id for a in state.legal_actions(seat)}


@dataclass(frozen=True)
class VerdictRequest:
    """What a judge of a judged dialogue game is asked (public text only) and the rule's own verdict."""

    text: str
    verdicts: tuple[str, ...]
    rule_verdict: str
    judge_seat: int  # the seat index a judge's transcript is stored under (one past the players)


def pending_verdict(match: Match) -> VerdictRequest | None:
    """The match's awaited verdict, or None when none is awaited."""
    state = state_of(match)
    if not state.awaiting_verdict():
        return None
    text, verdicts = state.verdict_request()
    return VerdictRequest(text, tuple(verdicts), state.fallback_verdict(), state.game.num_seats)


# --- finished matches, for research evaluations of the agents that played them (agents_app's Who is Spy probes) -----


def measures_if_ended_by_rules(match: Match) -> list[dict] | None:
    """Every seat's declared measures of a finished match whose game ended by its own rules; None for one ended
    otherwise (a resignation, an agreed draw, an abort: the game's own result does not exist)."""
    state = state_of(match)
    if not state.is_terminal():
        return None
    return [state.measures(seat) for seat in range(state.game.num_seats)]


def seat_views_before(match: Match, action_prefix: str) -> list[SeatView] | None:
    """Each seat's own view just before the match's first action whose id starts with ``action_prefix`` (the log
    replayed from the seed), or None when no such action was taken. Seat i's view is what seat i saw then."""
    from gameplay.reads.selectors import game_of

    state = game_of(match).new_initial_state(match.seed)
    for event in match.events.filter(kind="action").order_by("seq"):
        action_id = event.payload["action_id"]
        if action_id.startswith(action_prefix):
            return [state.seat_view(seat) for seat in range(state.game.num_seats)]
        state.apply_action(event.seat, action_id, event.payload.get("text"))
    return None
