"""Who is at the table: whether each seat of a match has its page open (issue 16.1).

Every PRESENCE_BEAT_SECONDS each server process writes "this seat was here at <time>" for the seats of all its open
match sockets (``beat_many``, from gameplay.web.consumers.ProcessHeartbeat) to Django's cache (Redis when REDIS_URL is
set, so every server process reads the same); a socket also beats once as it opens. A seat is *here* while its
newest beat is younger than PRESENCE_TIMEOUT_SECONDS. When a seat's last socket closes cleanly (a tab closed, a page
left) the seat is marked *gone* at once; a socket that dies without closing (a network lost, a process killed) stops
beating and its seat is gone when the timeout runs out. A seat nobody has opened yet is *not yet here*.

The sockets of a match tell each other when a seat comes or goes (a ``presence.changed`` group message), and the
heartbeat reads everyone's beats again each time, so a page shows a partner gone within PRESENCE_TIMEOUT_SECONDS
plus one beat.

Bookkeeping only: nothing here is part of a match's record. Writes: ``beat``, ``beat_many``, ``mark_gone``. Reads:
``read``, ``of_match``, ``seats_left``.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from gameplay.models import Seat

logger = logging.getLogger(__name__)

HERE = "here"
GONE = "gone"
NOT_YET = "not yet"
AGENT = "agent"

# How long a seat's last beat is kept: long after any timeout, only so that "gone" is not mistaken for "not yet".
_KEEP_SECONDS = 24 * 3600
_clock = time.time  # wall-clock seconds: beats are compared across server processes; tests move it


@dataclass(frozen=True)
class SeatPresence:
    index: int
    name: str
    state: str  # HERE, GONE, NOT_YET or AGENT (agents are always at the table)
    away_seconds: float  # how long a person's seat has not been here (0 while it is; since the match began if
    # it never was)

    @property
    def left(self) -> bool:
        """Away for longer than PRESENCE_LEFT_AFTER_SECONDS: gone for good, not a reload or a moment offline."""
        return self.state in (GONE, NOT_YET) and self.away_seconds > settings.PRESENCE_LEFT_AFTER_SECONDS

    @property
    def words(self) -> str:
        if self.state == GONE:
            return "has left the game" if self.left else "is not connected"
        return {HERE: "is connected", NOT_YET: "has not joined yet", AGENT: "is a computer agent"}[self.state]


# --- writes --------------------------------------------------------------------------------------------------


def beat(seat: Seat) -> None:
    """This seat has a page open now."""
    _write(seat, here=True)


def beat_many(seats: Iterable[Seat]) -> None:
    """These seats have pages open now: one round trip for all the sockets of a server process."""
    value = {"at": _clock(), "here": True}
    try:
        cache.set_many({_key(seat): value for seat in seats}, timeout=_KEEP_SECONDS)
    except Exception:
        logger.warning("could not record the presence of this process's seats", exc_info=True)


def mark_gone(seat: Seat) -> None:
    """This seat's last socket closed: it is gone now, not when its last beat times out."""
    _write(seat, here=False)


def _write(seat: Seat, *, here: bool) -> None:
    try:
        cache.set(_key(seat), {"at": _clock(), "here": here}, timeout=_KEEP_SECONDS)
    except Exception:  # a cache outage must not close sockets; presence is then unknown for a while
        logger.warning("could not record the presence of seat %s", seat.pk, exc_info=True)


# --- reads ---------------------------------------------------------------------------------------------------


def of_match(seats: Sequence[Seat], started_at: float, known: Mapping[str, dict] | None = None) -> list[SeatPresence]:
    """The presence of every seat of a match (``seats``, in order), with ``started_at`` (wall-clock seconds) the
    time the match began: a seat never seen has been away since then. ``known``: what ``read`` returned for
    these seats (and others), when the caller read many matches at once."""
    found = read(seats) if known is None else known
    now = _clock()
    return [_presence(seat, found.get(_key(seat)), now, started_at) for seat in seats]


def read(seats: Iterable[Seat]) -> dict[str, dict]:
    """The newest beats of these seats (people only; agents need none), in one round trip."""
    keys = [_key(s) for s in seats if not s.is_agent]
    try:
        return cache.get_many(keys)
    except Exception:
        logger.warning("presence unavailable for %s seats", len(keys), exc_info=True)
        return {}


def seats_left(presence: Iterable[SeatPresence]) -> list[int]:
    """The seats of people who have left (``SeatPresence.left``)."""
    return [p.index for p in presence if p.left]


def _presence(seat: Seat, value, now: float, started_at: float) -> SeatPresence:
    if seat.is_agent:
        return SeatPresence(seat.index, seat.display_name, AGENT, 0.0)
    if not isinstance(value, dict) or not isinstance(value.get("at"), (int, float)):
        return SeatPresence(seat.index, seat.display_name, NOT_YET, max(0.0, now - started_at))
    away = max(0.0, now - value["at"])
    if value.get("here") and away < settings.PRESENCE_TIMEOUT_SECONDS:
        return SeatPresence(seat.index, seat.display_name, HERE, 0.0)
    return SeatPresence(seat.index, seat.display_name, GONE, away)


def _key(seat: Seat) -> str:
    # Named by a digest of the seat's token, not its id: ids come back in a database made again (tests, a fresh
    # install beside a Redis that kept its keys), and another match's old beats must never count. Not the token
    # itself: the cache need not hold credentials.
    return "presence:" + hashlib.blake2b(seat.token.encode(), digest_size=12).hexdigest()
