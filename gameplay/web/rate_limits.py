"""Per-client limits on what one visitor may ask of the site: a counter per key and time window in Django's cache
(shared by every server process when there is Redis, as the cache is; the process's memory on the embedded default).

A fixed window is enough here: the limits bound work a visitor can queue (a leaderboard computation), not the rate
of a protocol. The client is its address as the server saw it (``REMOTE_ADDR``; daphne sets it from the socket, or
from a proxy's header when started with --proxy-headers)."""

from __future__ import annotations

import time

from django.core.cache import cache


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def allow(key: str, limit: int, *, per_seconds: int, now: float | None = None) -> bool:
    """Count one more use of ``key`` in the current window; False once it is over ``limit`` there."""
    window = int((time.time() if now is None else now) // per_seconds)
    counter = f"rate-limit:{key}:{window}"
    cache.add(counter, 0, timeout=per_seconds * 2)
    try:
        used = cache.incr(counter)
    except ValueError:  # expired between add and incr
        cache.set(counter, 1, timeout=per_seconds * 2)
        used = 1
    return used <= limit
