"""Reads for seed 002's Who is Spy evaluations: stored finished matches, each seat's agent and outcome (from the
engine's declared measures of the final state), and each seat's view just before the first vote (the log replayed in
the match layer: no state reaches this app)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gameplay.engines.seat_view import SeatView
from gameplay.models import Match, Seat
from gameplay.reads.agent_seats import measures_if_ended_by_rules, seat_views_before

GAME_ID = "who_is_spy"
PERSON = "(person)"


@dataclass(frozen=True)
class SeatOutcome:
    match_id: int
    seat: int
    agent: str
    is_spy: bool
    won: bool
    rounds_survived: int  # rounds finished still in the game (the round the seat went out in not counted)
    rounds_played: int  # rounds the seat took part in, the one it went out in included: seed 002's Round
    votes_received: int
    voted_out: bool

    @property
    def role(self) -> str:
        return "spy" if self.is_spy else "villager"


def seat_agents(match: Match) -> dict[int, str]:
    """The agent name per seat (people as "(person)")."""
    return {s.index: (s.agent_name if s.controller == Seat.Controller.AGENT else PERSON) for s in match.seats.all()}


def finished_matches() -> Iterator[tuple[Match, list[dict]]]:
    """Finished Who is Spy matches (oldest first) that the game itself ended (a match ended by a resignation has no
    result of the game's own), each with every seat's final measures."""
    for match in Match.objects.filter(game_id=GAME_ID, status=Match.Status.FINISHED).order_by("id"):
        measures = measures_if_ended_by_rules(match)
        if measures is not None:
            yield match, measures


def outcomes(match: Match, measures: list[dict]) -> list[SeatOutcome]:
    """Every seat's outcome, from the measures the game declares (is_spy, won, rounds_survived, rounds_played,
    votes_received, voted_out)."""
    agents = seat_agents(match)
    rows = []
    for seat, m in enumerate(measures):
        rows.append(SeatOutcome(match.pk, seat, agents.get(seat, PERSON), bool(m["is_spy"]), bool(m["won"]),
                                int(m["rounds_survived"] or 0), int(m["rounds_played"] or 0),
                                int(m["votes_received"] or 0), bool(m["voted_out"])))
    return rows


def views_before_first_vote(match: Match) -> list[SeatView] | None:
    """Each seat's own view just before the match's first vote (None when no vote was ever cast). Callers show a model
    only the probed seat's ``text``; the other seats' views are the truth its answers are scored against."""
    return seat_views_before(match, "vote:")
