"""Per-client limits on what one visitor may ask of the site: a counter per key and time window in Django's cache
(shared by every server process when there is Redis, as the cache is; the process's memory on the embedded default).

A fixed window is enough here: the limits bound work a visitor can queue (a leaderboard computation), not the rate
of a protocol. The client is its address as the server saw it (``REMOTE_ADDR``; daphne sets it from the socket, or
from a proxy's header when started with --proxy-headers)."""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

logger = logging.getLogger(__name__)


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def allow(key: str, limit: int, *, per_seconds: int, now: float | None = None) -> bool:
    """Count one more use of ``key`` in the current window; False once it is over ``limit`` there."""
    return window_count(key, per_seconds=per_seconds, now=now) <= limit


def window_count(key: str, *, per_seconds: int, now: float | None = None) -> int:
    """Count one more use of ``key`` in the current window of ``per_seconds``; how many there are now, this one
    included. 0 when the cache cannot be reached: an outage must not lock people out."""
    window = int((time.time() if now is None else now) // per_seconds)
    counter = f"rate-limit:{key}:{window}"
    try:
        # Mostly a new window for a key used now and then: add starts it at 1 in one round trip.
        if cache.add(counter, 1, timeout=per_seconds * 2 + 3):
            return 1
        try:
            return cache.incr(counter)
        except ValueError:  # expired between add and incr
            cache.add(counter, 1, timeout=per_seconds * 2 + 3)
            return 1
    except Exception:
        logger.warning("rate counter unavailable; allowing %s", key, exc_info=True)
        return 0
