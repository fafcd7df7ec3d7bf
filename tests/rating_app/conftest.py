"""The leaderboard's tests press its compute button many times from one test client's address within a minute;
the per-address and open-request limits are lifted for them, and tests/rating_app/test_leaderboard_limits.py
sets them as it needs.

The leaderboard view tests (test_leaderboard_pages, _downloads, _compute_button) share the fixtures below: a small
bootstrap (their pytestmark asks for it), pressing a page's compute button, and the GameBench data rated through it
(test_ratings_library has a gamebench fixture of its own, which takes precedence there)."""

import pytest

from tests.rating_app.leaderboard_support import html_of


@pytest.fixture(autouse=True)
def unlimited_compute_button(settings):
    settings.RATING_REQUESTS_PER_MINUTE = 10_000
    settings.RATING_OPEN_REQUESTS = 10_000


# --- the leaderboard view tests (test_leaderboard_pages, _downloads, _compute_button) ------------------------------


@pytest.fixture
def small_bootstrap(settings):
    """Used by those modules' pytestmark: a small bootstrap keeps each computation quick."""
    settings.RATING_BOOTSTRAP = 200


@pytest.fixture
def compute(client, django_capture_on_commit_callbacks):
    """Press a page's compute button (a POST to the page itself); returns the page shown after it.

    The request's commit runs the on-commit callbacks (the test's own transaction never commits): the task is
    queued then, and eager Celery computes the run in-process.
    """

    def press(url: str = "/ratings/") -> str:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url)
        assert response.status_code == 302 and response["Location"] == url
        return html_of(client.get(url))

    return press


@pytest.fixture
def gamebench(compute):
    """The GameBench data rated through the leaderboard's button."""
    compute("/ratings/?source=gamebench")
