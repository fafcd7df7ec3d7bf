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
