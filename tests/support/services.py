"""Whether the external services (PostgreSQL, Redis) must be there: in CI and in .ci/test's phase 2 they must, so
a test that needs one fails when it is missing; on a developer's machine it is skipped instead."""

from __future__ import annotations

import os

import pytest


def services_required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("REQUIRE_SERVICES") == "1"


def missing(message: str):
    """A missing service fails the test where services are required (CI, phase 2), else skips it."""
    if services_required():
        pytest.fail(message)
    pytest.skip(message)
