"""Per-seat limits on websockets (issue 13.6), so one seat link cannot crowd out everybody else's matches.

Sockets: at most MAX_SOCKETS_PER_SEAT open at once. A newly opened socket always gets in; the seat's oldest ones
beyond the limit are told to close. A reload or a new tab therefore never locks a player out, and a script that
opens socket after socket keeps only the last few. Open sockets are rows of SeatConnection, in the database every
server process shares; a row left behind by a process that died is simply the oldest and goes first.

Frames: at most MAX_FRAMES_PER_SECOND per seat, counted over all its sockets in one-second windows in Django's
cache (Redis when REDIS_URL is set, so every daphne process counts together), and at most
MAX_FRAMES_PER_SECOND_PER_CLIENT from one client address over all its sockets of all seats and matches (issue 37,
point 5: anyone may create matches, so per-seat limits alone let one visitor with ten matches flood the server).
The rest of the second is refused. The per-address limit is generous (a classroom behind one address plays live
Boxing at once); it bounds a flood, not a person.

Floods: a socket that sends more than FLOOD_FRAMES_PER_SECOND frames within one second is closed (FLOOD_CLOSE_CODE),
and its client address may open no match socket for FLOOD_BAR_SECONDS; from any address at most
SOCKETS_OPENED_PER_MINUTE_PER_CLIENT match sockets open a minute. Dropping a flood's frames one by one still reads
every one of them on the server's cores; closing the socket ends the flood where it starts, and the bar keeps a
script that reconnects at once from starting it again (issue 37, point 5). No page comes near that rate: a person
clicks, types or holds keys (live inputs are sent on a change, not on key repeat).

Chat has its own limit in the match service (services.post_message), where it holds for every caller.
This module writes only its own bookkeeping, never a match.
"""

from __future__ import annotations

import enum
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from gameplay.models import Seat, SeatConnection
from gameplay.web import rate_limits

logger = logging.getLogger(__name__)

# The close code of a socket closed for a newer one of the same seat: outside the codes the htmx websocket
# extension reconnects on (1006, 1011, 1012, 1013), so the old tab stays closed instead of evicting the new one.
EVICTED_CLOSE_CODE = 4001
EVICTED_MESSAGE = (
    "This game was opened in another tab or window, so this one is closed. Reload the page to play here instead."
)
# The close code of a socket closed for flooding: the policy-violation range of the private codes, outside the codes the
# htmx websocket extension reconnects on, so a page never reconnects into the bar by itself.
FLOOD_CLOSE_CODE = 4008
FLOOD_MESSAGE = (
    "This connection sent far more messages than a person can, so it was closed. Reload the page in a minute to go on."
)
_clock = time.time  # the windows' clock; tests freeze it to make a burst land in one window
# Addresses barred in this process, until when (by _clock): a reconnecting flood is refused on the event loop,
# without a thread or a cache round trip. The cache holds the bar for the other server processes.
_barred: dict[str, float] = {}


def register_socket(seat: Seat, channel_name: str) -> list[str]:
    """Record a newly opened socket of ``seat``. Returns the channel names of the seat's oldest sockets beyond
    MAX_SOCKETS_PER_SEAT, already forgotten here, for the caller to tell to close."""
    keep = max(1, settings.MAX_SOCKETS_PER_SEAT)
    with transaction.atomic():
        # Sockets of one seat opening at the same moment queue here, so each sees the others' rows.
        Seat.objects.select_for_update().filter(pk=seat.pk).values_list("pk", flat=True).first()
        SeatConnection.objects.create(seat=seat, channel_name=channel_name)
        newest_first = SeatConnection.objects.filter(seat=seat).order_by("-opened_at", "-id")
        evicted = list(newest_first.values_list("id", "channel_name")[keep:])
        SeatConnection.objects.filter(id__in=[pk for pk, _ in evicted]).delete()
    return [name for _, name in evicted]


def unregister_socket(seat: Seat, channel_name: str) -> bool:
    """Forget a closed socket; whether its seat still has other sockets open (rows a dead process left count as
    open: such a seat's presence then times out instead of ending at once)."""
    SeatConnection.objects.filter(channel_name=channel_name).delete()
    return SeatConnection.objects.filter(seat=seat).exists()


class FrameCheck(enum.Enum):
    ALLOWED = "allowed"
    REFUSED = "refused"  # the first refused frame of its window: say why, once
    REFUSED_AGAIN = "refused again"  # later ones in the same window: drop them without a reply


def check_frame(seat_id: int, client: str = "") -> FrameCheck:
    """Count one frame of this seat (and of its client address) in the current one-second window and say whether it
    may be handled: refused when either is over its limit. When the cache cannot be reached the frame is allowed
    (gameplay.web.rate_limits): a cache outage must not lock players out."""
    now = _clock()
    seat_check = _check(f"ws-frames:{seat_id}", settings.MAX_FRAMES_PER_SECOND, now)
    if not client or seat_check is not FrameCheck.ALLOWED:
        return seat_check
    return _check(f"ws-client-frames:{client}", settings.MAX_FRAMES_PER_SECOND_PER_CLIENT, now)


def _check(key: str, limit: int, now: float) -> FrameCheck:
    count = rate_limits.window_count(key, per_seconds=1, now=now)
    if count <= limit:
        return FrameCheck.ALLOWED
    return FrameCheck.REFUSED if count == limit + 1 else FrameCheck.REFUSED_AGAIN


class Verdict(enum.Enum):
    HANDLE = "handle"
    DROP = "drop"  # past the seat's limit on this socket alone: dropped unread
    CLOSE = "close"  # a flood: close the socket and bar its address (bar_client)


class SocketWindow:
    """One socket's own count of its frames in the current one-second window, in the server process's memory.

    A socket that alone has sent more than one frame past MAX_FRAMES_PER_SECOND this second is over its seat's
    limit whatever the seat's other sockets did, and the shared count (``check_frame``) has already answered the
    first frame past it with the one message of the second. Its further frames are dropped before anything else
    runs: no worker thread, no cache round trip, no reply. Past FLOOD_FRAMES_PER_SECOND in the second the socket is
    flooding and is closed (issue 37, point 5)."""

    def __init__(self):
        self.window = -1
        self.count = 0

    def count_frame(self) -> Verdict:
        """Count one frame; what to do with it."""
        window = int(_clock())
        if window != self.window:
            self.window, self.count = window, 0
        self.count += 1
        if self.count > max(settings.FLOOD_FRAMES_PER_SECOND, settings.MAX_FRAMES_PER_SECOND + 1):
            return Verdict.CLOSE
        return Verdict.DROP if self.count > settings.MAX_FRAMES_PER_SECOND + 1 else Verdict.HANDLE


def _bar_key(client: str) -> str:
    return f"ws-flood-bar:{client}"


def bar_client(client: str) -> None:
    """Refuse new match sockets from ``client`` for FLOOD_BAR_SECONDS: in this process at once, in the others
    through the cache (a cache outage leaves only this process's bar)."""
    if not client:
        return
    now = _clock()
    # Forget the bars that have run out: an attacker with many addresses (an IPv6 block) must not grow this without end.
    for address in [a for a, until in _barred.items() if until <= now]:
        del _barred[address]
    _barred[client] = now + settings.FLOOD_BAR_SECONDS
    try:
        cache.set(_bar_key(client), 1, timeout=settings.FLOOD_BAR_SECONDS)
    except Exception:
        logger.warning("could not share the flood bar of a client", exc_info=True)


def barred_here(client: str) -> bool:
    """Whether this process barred ``client`` (no I/O: asked on the event loop before anything else)."""
    until = _barred.get(client)
    if until is None:
        return False
    if until <= _clock():
        _barred.pop(client, None)
        return False
    return True


def may_open(client: str) -> bool:
    """Whether a match socket from ``client`` may open: not barred for flooding (here or by another process) and
    within SOCKETS_OPENED_PER_MINUTE_PER_CLIENT. Counts the opening. An address the server cannot tell (no client
    in the scope) is not limited here; its frames still are, per seat."""
    if not client:
        return True
    if barred_here(client):
        return False
    try:
        barred = cache.get(_bar_key(client)) is not None
    except Exception:
        logger.warning("flood bar unavailable; not checked", exc_info=True)
        barred = False
    if barred:
        _barred[client] = _clock() + settings.FLOOD_BAR_SECONDS  # later attempts are refused on the loop
        return False
    return rate_limits.allow(f"ws-opened:{client}", settings.SOCKETS_OPENED_PER_MINUTE_PER_CLIENT, per_seconds=60,
                             now=_clock())


def too_many_frames_message() -> str:
    return (
        f"Too many messages at once (at most {settings.MAX_FRAMES_PER_SECOND} a second from a seat); "
        "this one and the rest of this second are ignored, so nothing was changed. Try again in a moment."
    )
