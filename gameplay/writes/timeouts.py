"""Writes: the turn timer's sweep (``GameSpec.turn_timer``), applying the timeout action of each person whose time ran
out through the match service's one action path."""

from __future__ import annotations

import logging

from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.turn_timer import overdue_seats

logger = logging.getLogger("gameplay.writes.services")  # the service's log, where a sweep's outcome was always written


def apply_timeouts(match_id: int) -> list[int]:
    """Apply the timeout action (``State.timeout_action``) of every person's seat whose time for its current decision
    has run out (``GameSpec.turn_timer``; the clock is the server's, from ``Match.turn_started_at``); returns the seats
    timed out, in the order applied.

    Each goes through ``apply_action`` like any move (one transaction, the row lock, the version check, the engine's
    legality check), at the version the seat was found overdue, with ``timeout=True``: the deadline is checked again
    under the lock, and the event is marked ``"timed_out": true`` (its labels end "(time ran out)") for exports and
    replays. Idempotent and safe against races: a move that lands first, or another sweep that timed the seat out
    first, moves the version on, so the stale timeout is refused and changes nothing. Seats are taken one at a time,
    each against the match as it then stands (one seat's timeout may end a phase, and with it the others' decisions).
    Only people's seats are timed (gameplay.writes.turn_timer): agents' seats have their own deadline and fallback."""
    applied: list[int] = []
    tried: set[tuple[int, int]] = set()
    while True:
        match = Match.objects.filter(pk=match_id).first()
        if match is None or match.status != Match.Status.ACTIVE or match.wait_for_players:
            return applied
        state = state_of(match)
        if not state.game.spec.turn_timer:
            return applied
        due = [s for s in overdue_seats(match, state, match.seats.all()) if (match.version, s) not in tried]
        if not due:
            return applied
        seat_index = due[0]
        tried.add((match.version, seat_index))
        timeout = state.timeout_action(seat_index)
        if timeout is None:
            logger.error("match %s: seat %s ran out of time but %s gives no timeout action", match_id, seat_index,
                         match.game_id)
            continue
        action_id, text = timeout
        try:
            services.apply_action(match_id, seat_index, action_id, expected_version=match.version, text=text,
                                  timeout=True)
        except services.ActionRejected as err:
            # Somebody moved first (or another sweep timed the seat out): the match moved on; look again.
            logger.info("match %s: timeout of seat %s not applied (%s)", match_id, seat_index, err)
            continue
        logger.info("match %s: seat %s ran out of time: %s applied", match_id, seat_index, action_id)
        applied.append(seat_index)
