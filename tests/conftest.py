"""Shared test configuration."""

import os

import pytest


def require_env(name: str) -> str:
    """The value of a service URL the test needs; skip without it, except where services are required.

    .ci/test sets REQUIRE_SERVICES=1 in its PostgreSQL/Redis phase, so there a missing
    service fails the run instead of silently skipping.
    """
    value = os.environ.get(name, "")
    if not value:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{name} must be set when REQUIRE_SERVICES=1")
        pytest.skip(f"{name} not set (run .ci/run or set it to test against the real service)")
    return value


@pytest.fixture(autouse=True, scope="session")
def redis_names_of_this_worker():
    """Under pytest-xdist each worker has a test database of its own, where ids start at 1 again, but all share one
    Redis: give each worker's channel-layer groups ("match-<id>") and cache keys (per seat id) a prefix of its own,
    so that one worker's sockets never receive another's messages or count its frames."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        from channels.layers import channel_layers
        from django.conf import settings

        config = settings.CHANNEL_LAYERS["default"].get("CONFIG")
        if config is not None and "hosts" in config:
            config["prefix"] = f"asgi-test-{worker}"
            channel_layers.backends.clear()
        cache = settings.CACHES["default"]
        if "KEY_PREFIX" in cache:
            cache["KEY_PREFIX"] = f"{cache['KEY_PREFIX']}-test-{worker}"
    yield
