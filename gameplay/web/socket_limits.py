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

Chat has its own limit in the match service (services.post_message), where it holds for every caller.
This module writes only its own bookkeeping, never a match.
"""

from __future__ import annotations

import enum
import time

from django.conf import settings
from django.db import transaction

from gameplay.models import Seat, SeatConnection
from gameplay.web import rate_limits

# The close code of a socket closed for a newer one of the same seat: outside the codes the htmx websocket
# extension reconnects on (1006, 1011, 1012, 1013), so the old tab stays closed instead of evicting the new one.
EVICTED_CLOSE_CODE = 4001
EVICTED_MESSAGE = (
    "This game was opened in another tab or window, so this one is closed. Reload the page to play here instead."
)
_clock = time.time  # the windows' clock; tests freeze it to make a burst land in one window


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


class SocketWindow:
    """One socket's own count of its frames in the current one-second window, in the server process's memory.

    A socket that alone has sent more than one frame past MAX_FRAMES_PER_SECOND this second is over its seat's
    limit whatever the seat's other sockets did, and the shared count (``check_frame``) has already answered the
    first frame past it with the one message of the second. Its further frames are dropped before anything else
    runs: no worker thread, no cache round trip, no reply. A flooding socket then costs the server little more than
    reading its frames, and other people's matches keep their pace (issue 37, point 5)."""

    def __init__(self):
        self.window = -1
        self.count = 0

    def over(self) -> bool:
        """Count one frame; True when it is to be dropped unread."""
        window = int(_clock())
        if window != self.window:
            self.window, self.count = window, 0
        self.count += 1
        return self.count > settings.MAX_FRAMES_PER_SECOND + 1


def too_many_frames_message() -> str:
    return (
        f"Too many messages at once (at most {settings.MAX_FRAMES_PER_SECOND} a second from a seat); "
        "this one and the rest of this second are ignored, so nothing was changed. Try again in a moment."
    )
