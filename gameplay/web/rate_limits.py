"""Per-client limits on what one visitor may ask of the site: a counter per key and time window in Django's cache
(shared by every server process when there is Redis, as the cache is; the process's memory on the embedded default).

A fixed window is enough here: the limits bound work a visitor can queue (a leaderboard computation), not the rate
of a protocol. The client is its address as the server saw it (``REMOTE_ADDR``; daphne sets it from the socket, or
from a proxy's header when started with --proxy-headers).

Pages that create something (a match, a seat taken through an invite, a study participant) are limited per client
with ``limited_per_client``; a refusal is ``too_many``: 429 with Retry-After and a page that says why."""

from __future__ import annotations

import logging
import math
import time
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render

from gameplay.web.access import is_staff

logger = logging.getLogger(__name__)

_clock = time.time  # the windows' clock; tests freeze it so that a burst lands in one window, as socket_limits' own


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def allow(key: str, limit: int, *, per_seconds: int, now: float | None = None) -> bool:
    """Count one more use of ``key`` in the current window; False once it is over ``limit`` there."""
    return window_count(key, per_seconds=per_seconds, now=now) <= limit


# Seconds a window's counter outlives its window in the cache (a real clock has moved on by then). Tests that freeze
# the clock keep one window for the whole test and raise it: on a loaded machine the test itself outlasts 2 s + 3 s.
WINDOW_GRACE_S = 3


def window_count(key: str, *, per_seconds: int, now: float | None = None) -> int:
    """Count one more use of ``key`` in the current window of ``per_seconds``; how many there are now, this one
    included. 0 when the cache cannot be reached: an outage must not lock people out."""
    window = int((_clock() if now is None else now) // per_seconds)
    counter = f"rate-limit:{key}:{window}"
    try:
        # Mostly a new window for a key used now and then: add starts it at 1 in one round trip.
        if cache.add(counter, 1, timeout=per_seconds * 2 + WINDOW_GRACE_S):
            return 1
        try:
            return cache.incr(counter)
        except ValueError:  # expired between add and incr
            cache.add(counter, 1, timeout=per_seconds * 2 + WINDOW_GRACE_S)
            return 1
    except Exception:
        logger.warning("rate counter unavailable; allowing %s", key, exc_info=True)
        return 0


def limited_per_client(setting: str, scope: str, reason: str, *, per_seconds: int = 60):
    """View decorator: at most ``settings.<setting>`` POSTs from one client address per window of ``per_seconds``
    (issue 37: a script could create matches, take invites or enrol participants without end). Over the limit the
    view does not run, so nothing is created: the answer is ``too_many``. Only POSTs are counted, so a GET stays
    read-only and free; staff are not limited. The setting is read at each request (tests and operators may
    change it)."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            if request.method == "POST" and not is_staff(request):
                now = _clock()
                key = f"{scope}:{client_address(request)}"
                if not allow(key, getattr(settings, setting), per_seconds=per_seconds, now=now):
                    return too_many(request, reason, retry_after=seconds_to_next_window(per_seconds, now))
            return view(request, *args, **kwargs)

        return limited

    return decorate


def seconds_to_next_window(per_seconds: int, now: float) -> int:
    """Whole seconds until the window of ``now`` ends (at least 1): when a refused client may try again."""
    return max(1, math.ceil(per_seconds - now % per_seconds))


def too_many(request, reason: str, *, retry_after: int = 60) -> HttpResponse:
    """The answer to a refused request: 429, Retry-After (seconds), and a page saying why and when to try again."""
    response = render(request, "429.html", {"reason": reason, "retry_after": retry_after}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
