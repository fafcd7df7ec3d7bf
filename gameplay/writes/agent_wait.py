"""Reads: is a person waiting for an agent, for how long, and may they stop waiting? No writes here.

The clock is the server's: a turn starts at ``Match.turn_started_at`` (set by every applied action), so the page,
the watchdog and the POST that ends a match all measure the same wait, whatever the browser's clock says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from gameplay.engines.api import State
from gameplay.models import Match, Seat
from gameplay.reads.selectors import state_of


def agent_seats_to_move(match: Match, state: State | None = None, seats: list[Seat] | None = None) -> set[int]:
    """The seats played by an agent that must act now (empty once the match is over). ``seats``: the match's
    seats when the caller has them (a page or socket rendering a view), saving a query."""
    if match.status != Match.Status.ACTIVE:
        return set()
    state = state or state_of(match)
    if state.is_terminal():
        return set()
    if seats is None:
        agents = set(match.seats.filter(controller=Seat.Controller.AGENT).values_list("index", flat=True))
    else:
        agents = {s.index for s in seats if s.controller == Seat.Controller.AGENT}
    return agents & set(state.current_seats())


def turn_started(match: Match) -> datetime:
    """When the current decision started (matches from before turn_started_at existed: their last change)."""
    return match.turn_started_at or match.updated_at


@dataclass(frozen=True)
class AgentWait:
    """One person waiting for an agent's move."""

    waited_s: int  # since the agent's turn started
    seconds_left: int  # until the way out opens (0: open now)

    @property
    def way_out(self) -> bool:
        return self.seconds_left == 0


def agent_wait(
    match: Match, seat_index: int | None, now: datetime | None = None, seats: list[Seat] | None = None
) -> AgentWait | None:
    """How long ``seat_index`` (a person's seat) has waited for an agent, or None when nobody keeps it waiting:
    the match is over, the seat may act itself, or no agent must act."""
    if seat_index is None or match.status != Match.Status.ACTIVE:
        return None
    state = state_of(match)
    if state.is_terminal() or seat_index in state.current_seats():
        return None
    if not agent_seats_to_move(match, state, seats):
        return None
    waited = max(0.0, ((now or timezone.now()) - turn_started(match)).total_seconds())
    left = max(0.0, settings.AGENT_WAY_OUT_SECONDS - waited)
    # Rounded up: the page never offers the way out a second before the server accepts it.
    return AgentWait(waited_s=int(waited), seconds_left=math.ceil(left))
