"""Shared test configuration."""

import os
import shutil
import tempfile
from pathlib import Path

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


@pytest.fixture(autouse=True)
def fresh_rate_counts():
    """Each test starts with no per-address counts (gameplay.web.rate_limits): every test client has the same
    address, so POSTs counted by earlier tests in the same minute must not refuse a later test's. In the per-process
    cache (LocMemCache, the embedded default) the whole cache is emptied; in a shared Redis (phase 2) only this
    worker's rate counters are deleted, since flushing would take other workers' keys too (their prefixes differ,
    see above)."""
    from django.conf import settings
    from django.core.cache import cache

    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith(".LocMemCache"):
        cache.clear()
    elif backend.endswith(".RedisCache"):
        client = cache._cache.get_client(None, write=True)
        counters = list(client.scan_iter(match=cache.make_key("rate-limit:*")))
        if counters:
            client.delete(*counters)
    yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """The SQLite test database in a file (on tmpfs when there is one), as the embedded default keeps it, not in
    memory: in an in-memory database shared between threads, a read that meets another thread's write lock fails
    at once ("database table is locked") where a file database waits its busy timeout. The match sockets read from
    their own threads while tests write, so the in-memory behaviour would fail tests the real one passes."""
    from django.conf import settings

    shm = Path("/dev/shm")
    folders = []
    for db in settings.DATABASES.values():
        if db["ENGINE"] == "django.db.backends.sqlite3":
            folders.append(Path(tempfile.mkdtemp(prefix="test-db-", dir=shm if shm.is_dir() else None)))
            db.setdefault("TEST", {})["NAME"] = str(folders[-1] / "test.sqlite3")
    yield
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


# --- phase 2 of .ci/test: only the tests the services can change -----------------------------------------------
# Phase 2 runs again against PostgreSQL and Redis (TEST_PHASE=services). A test that touches neither the database nor
# the channel layer or cache behaves the same on both backends: running it twice proves nothing and costs minutes.
SERVICE_FIXTURES = frozenset({"transactional_db", "live_server", "django_db_serialized_rollback"})
SERVICE_WORDS = ("channel_layer", "WebsocketCommunicator", "cache.", "select_for_update", "connection.vendor",
                 "on_commit")


def touches_services(item) -> bool:
    """Whether a test may behave differently on PostgreSQL and Redis: an integration test; one that commits for real
    (transaction=True: locks, on_commit hooks, other threads and processes reading what it wrote); or one whose module
    talks to the channel layer or the cache, or locks rows. A test inside a rolled-back
    transaction doing plain ORM reads and writes gets the same answers from both databases (Django's ORM is tested
    on both by Django itself), so phase 2 leaves it to phase 1."""
    path = str(item.fspath)
    if "/tests/integration/" in path:
        return True
    if item.get_closest_marker("slow"):
        # The slow ones outside tests/integration measure or fuzz (benchmarks, hypothesis floods, study-bot
        # cohorts), or start servers of their own on SQLite files: the backends under test are not theirs.
        return False
    marker = item.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or marker.kwargs.get("serialized_rollback")):
        return True
    if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    return any(word in _module_text(path) for word in SERVICE_WORDS)


_TEXTS: dict[str, str] = {}


def _module_text(path: str) -> str:
    if path not in _TEXTS:
        _TEXTS[path] = Path(path).read_text(encoding="utf-8")
    return _TEXTS[path]


def pytest_collection_modifyitems(config, items):
    if os.environ.get("TEST_PHASE") == "services":
        kept = [item for item in items if touches_services(item)]
        dropped = [item for item in items if not touches_services(item)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    items.sort(key=expected_cost)


# --- the order tests start in: the long ones first ---------------------------------------------------------------
# .ci/test spreads the tests over workers with pytest-xdist's worksteal: each worker takes a contiguous share and an
# idle one takes half of the longest queue left. A test of minutes that starts last keeps one worker busy after the
# others have finished; started first, it overlaps with everything else (longest first). The sort is stable, so
# tests keep their file order within a class, and module-scoped fixtures stay shared.
def expected_cost(item) -> int:
    """0 for the slowest kinds of test (marked slow: cohorts, benchmarks, fuzzing), 1 for browser journeys, 2 for
    the engine conformance playouts (seconds to a minute each), 3 for the rest."""
    if item.get_closest_marker("slow"):
        return 0
    path = str(item.fspath)
    if "/tests/browser/" in path:
        return 1
    if path.endswith("tests/engines/test_conformance.py"):
        return 2
    return 3
