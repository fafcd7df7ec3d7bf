"""Shared pieces of the websocket limit tests (issue 13, point 6; issue 37, point 5): Django's cache on the same kind
of backend as the channel layer under test, under a key prefix of its own, and a frozen clock for the frame windows
so that a burst lands in one window."""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture
def isolated_cache(layer, settings):
    """Django's cache on the same kind of backend as the channel layer under test (Redis in phase 2, as in
    production), under a key prefix of its own so no other test's frame counters are seen."""
    prefix = f"test-limits-{uuid.uuid4().hex[:12]}"
    if layer == "redis":
        url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
        backend = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url, "KEY_PREFIX": prefix}
    else:
        backend = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": prefix}
    settings.CACHES = {"default": backend}  # setting_changed resets django.core.cache.caches
    return layer


class FrozenClock:
    """The frame windows' clock, standing still until a test moves it on, so a burst lands in one window."""

    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def frozen_clock(monkeypatch):
    clock = FrozenClock(1_000_000.0)
    try:
        from gameplay.web import socket_limits
    except ImportError:  # code from before the limits: nothing to freeze, the test fails on what it checks
        return clock
    monkeypatch.setattr(socket_limits, "_clock", clock)
    # One frozen window lasts the whole test: its counters must too, however slowly a loaded machine runs it (in
    # Redis they expire in real time; two Redis runs failed when a busy CI machine took longer than that).
    from gameplay.web import rate_limits
    monkeypatch.setattr(rate_limits, "WINDOW_GRACE_S", 600)
    monkeypatch.setattr(socket_limits, "_barred", {}, raising=False)  # no flood bar of another test's address
    return clock
