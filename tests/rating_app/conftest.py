"""The leaderboard's tests press its compute button many times from one test client's address within a minute;
the per-address and open-request limits are lifted for them, and tests/rating_app/test_leaderboard_limits.py
sets them as it needs."""

import pytest


@pytest.fixture(autouse=True)
def unlimited_compute_button(settings):
    settings.RATING_REQUESTS_PER_MINUTE = 10_000
    settings.RATING_OPEN_REQUESTS = 10_000
