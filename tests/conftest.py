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
