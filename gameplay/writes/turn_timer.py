"""Reads: a seat's time limit for its current decision and when it runs out (``GameSpec.turn_timer``). No writes here
(``timeouts.apply_timeouts`` applies the timeout actions; the watchdog's beat task sweeps for them).

The clock is the server's, as for agent waits (gameplay.writes.agent_wait): a decision starts at
``Match.turn_started_at``,
which every applied action sets, so the page, the sweep and the service that applies a timeout measure the same time
whatever a browser's clock says. That moment is the match's, not the seat's: in a simultaneous phase (Who is Spy's
vote) it is the newest move of any seat, so each move gives the seats still choosing their full limit again. A seat
thus never has less than its limit from the moment it became current (it may have more), and the rule needs no
per-seat bookkeeping. A timeout applied is nobody's move: when only seats that were already deciding remain, it keeps
their clock (``services.apply_action``), so a sweep times out every seat that has run out at once.

Only people's seats are timed: an agent's seat has its own deadline and fallback (the stalled-turn watchdog and the
agent task's logged fallback), so a slow model is never cut short by a game's clock meant for people.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from gameplay.engines.api import State
from gameplay.models import Match, Seat


def turn_started(match: Match) -> datetime:
    """When the current decision started (as gameplay.writes.agent_wait reads it; kept here so that selectors may import
    this module: agent_wait imports selectors)."""
    return match.turn_started_at or match.updated_at


def seat_deadline(match: Match, state: State, seat_index: int | None) -> datetime | None:
    """When ``seat_index``'s current decision runs out, or None: no limit (the game declares no turn timer, the engine
    sets none now, the seat is not to act) or nobody moves (the match is over or still waits for its players)."""
    if seat_index is None or match.status != Match.Status.ACTIVE or match.wait_for_players:
        return None
    if not state.game.spec.turn_timer or state.is_terminal() or seat_index not in state.current_seats():
        return None
    limit = int(state.time_limit(seat_index))
    if limit <= 0:
        return None
    return turn_started(match) + timedelta(seconds=limit)


def timed_seats(seats: Iterable[Seat]) -> set[int]:
    """The seats a turn timer applies to: people's."""
    return {s.index for s in seats if s.controller == Seat.Controller.HUMAN}


def overdue_seats(match: Match, state: State, seats: Iterable[Seat], now: datetime | None = None) -> list[int]:
    """People's seats that must act now and whose time has run out (deadline at or before ``now``), in seat order."""
    now = now or timezone.now()
    due = []
    for index in sorted(timed_seats(seats)):
        deadline = seat_deadline(match, state, index)
        if deadline is not None and deadline <= now:
            due.append(index)
    return due


@dataclass(frozen=True)
class TurnClock:
    """A person's countdown for the page: the server's deadline and, as drawn, the seconds left (rounded up)."""

    deadline: datetime
    seconds_left: int
    limit: int

    @property
    def deadline_ms(self) -> int:
        """The deadline in milliseconds since the epoch, for the page's script."""
        return int(self.deadline.timestamp() * 1000)


def turn_clock(match: Match, state: State, seat: Seat | None, now: datetime | None = None) -> TurnClock | None:
    """The countdown ``seat``'s page shows, or None: a spectator, an agent's seat, or no limit on its decision."""
    if seat is None or seat.controller != Seat.Controller.HUMAN:
        return None
    deadline = seat_deadline(match, state, seat.index)
    if deadline is None:
        return None
    left = max(0.0, (deadline - (now or timezone.now())).total_seconds())
    return TurnClock(deadline=deadline, seconds_left=math.ceil(left), limit=int(state.time_limit(seat.index)))
