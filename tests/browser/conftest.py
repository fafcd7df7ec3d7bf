"""Browser fixtures: the real app under daphne, driven by Playwright in Debian's Chromium."""

import os
from pathlib import Path

import pytest

from tests.support.live_server import daphne_server, migrate, server_env

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


# Per module, not per session: while Playwright's sync API is open its event loop counts as running on this
# thread, and Django then refuses database work done outside a test function (module-scoped fixtures of
# later, non-browser modules failed with SynchronousOnlyOperation).
@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium: a test that needs it is skipped without it, except in CI, where it fails."""
    if not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)  # CI must never pass by skipping the browser journeys
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="module")
def chromium(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def server_url_env(tmp_path_factory) -> dict[str, str]:
    """The environment of server_url's process (its database), for a test that adds data with manage.py."""
    db = tmp_path_factory.mktemp("browser-db") / "db.sqlite3"
    env = server_env(f"sqlite:///{db}", RATING_BOOTSTRAP="500")  # leaderboard pages in well under a second
    migrate(env)
    return env


@pytest.fixture(scope="session")
def server_url(server_url_env):
    """One daphne process on a fresh SQLite file, on the embedded default (in-memory layer, eager Celery)."""
    ARTIFACTS.mkdir(exist_ok=True)
    with daphne_server(server_url_env, log_path=ARTIFACTS / "browser-daphne.log") as url:
        yield url


@pytest.fixture
def phone_page(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                   has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def laptop_page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
