"""Reads for seed 002's Who is Spy evaluations: stored finished matches, each seat's agent and outcome (from the
engine's declared measures on the final state), and a seat's view just before the first vote (the log replayed)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gameplay.engines.api import State
from gameplay.models import Event, Match, Seat
from gameplay.selectors import game_of, state_of

GAME_ID = "who_is_spy"
PERSON = "(person)"


@dataclass(frozen=True)
class SeatOutcome:
    match_id: int
    seat: int
    agent: str
    is_spy: bool
    won: bool
    rounds_survived: int
    votes_received: int
    voted_out: bool

    @property
    def role(self) -> str:
        return "spy" if self.is_spy else "villager"

    @property
    def rounds_in(self) -> int:
        """Rounds the seat took part in: those it survived, plus the one it was voted out in."""
        return self.rounds_survived + (1 if self.voted_out else 0)


def seat_agents(match: Match) -> dict[int, str]:
    """The agent name per seat (people as "(person)")."""
    return {s.index: (s.agent_name if s.controller == Seat.Controller.AGENT else PERSON) for s in match.seats.all()}


def finished_matches() -> Iterator[tuple[Match, State]]:
    """Finished Who is Spy matches (oldest first) whose final state the engine reports as over (a match ended by a
    resignation is not: it has no result of the game's own), with that state."""
    for match in Match.objects.filter(game_id=GAME_ID, status=Match.Status.FINISHED).order_by("id"):
        state = state_of(match)
        if state.is_terminal():
            yield match, state


def outcomes(match: Match, state: State) -> list[SeatOutcome]:
    """Every seat's outcome, from the measures the game declares (is_spy, won, rounds_survived, votes_received,
    voted_out)."""
    agents = seat_agents(match)
    rows = []
    for seat in range(state.game.num_seats):
        m = state.measures(seat)
        rows.append(SeatOutcome(match.pk, seat, agents.get(seat, PERSON), bool(m["is_spy"]), bool(m["won"]),
                                int(m["rounds_survived"] or 0), int(m["votes_received"] or 0), bool(m["voted_out"])))
    return rows


def state_before_first_vote(match: Match) -> State | None:
    """The engine state just before the match's first vote, rebuilt by replaying its log from the seed (None when no
    vote was ever cast). Callers show only ``observation(seat).text`` of it to a model."""
    state = game_of(match).new_initial_state(match.seed)
    for event in Event.objects.filter(match=match, kind=Event.Kind.ACTION).order_by("seq"):
        action_id = event.payload["action_id"]
        if action_id.startswith("vote:"):
            return state
        state.apply_action(event.seat, action_id, event.payload.get("text"))
    return None
