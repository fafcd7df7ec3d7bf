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
SERVICE_FIXTURES = frozenset({"transactional_db", "live_server", "django_db_serialized_rollback",
                              "django_capture_on_commit_callbacks"})  # also when a shared fixture asks for it
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


# The consumer tests run once per channel layer (the ``layer`` and ``cut_layer`` fixtures). Each phase keeps the layer
# of its deployment: phase 1 the embedded default's in-memory layer, phase 2 Redis beside PostgreSQL, as a site runs.
# SQLite with Redis, or PostgreSQL with the in-memory layer, is nobody's configuration; running both layers in both
# phases cost a minute of CI. TEST_PHASE=embedded (phase 1 when phase 2 follows) leaves the Redis variants to phase 2.
LAYER_PARAMS = ("layer", "cut_layer")
PHASE_LAYER = {"embedded": "memory", "services": "redis"}


def runs_in_phase(item, phase: str) -> bool:
    params = getattr(getattr(item, "callspec", None), "params", {})
    layers = {params[name] for name in LAYER_PARAMS if name in params}
    if layers and PHASE_LAYER[phase] not in layers:
        return False
    return phase != "services" or touches_services(item)


def pytest_collection_modifyitems(config, items):
    phase = os.environ.get("TEST_PHASE", "")
    if phase in PHASE_LAYER:
        dropped = [item for item in items if not runs_in_phase(item, phase)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [item for item in items if runs_in_phase(item, phase)]
    if phase == "services":
        return  # phase 2 hands out whole files (--dist loadfile): the order of single tests does not matter there
    items[:] = worker_shares(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1))


# --- the order tests start in: the long ones first, spread over the workers ------------------------------------
# .ci/test spreads the tests over workers with pytest-xdist's worksteal: worker i first gets the i-th contiguous share
# of the collection (sizes as in worksteal's check_schedule) and an idle one later takes half of the longest queue
# left, from its end. A test of minutes that starts last keeps one worker busy after the others have finished; left
# where collection put it, the slow ones also bunch up in one share. So each share starts with its part of the long
# tests, dealt out by weight, and goes on with the short ones (which are what stealing moves). Browser tests of a
# module stay together (they share its Chromium and servers). The order is a function of the collection and the
# worker count alone, so every worker computes the same one, as xdist requires.
WEIGHTS = {"slow": 10, "browser": 3, "conformance": 2}


def kind_of(item) -> str:
    if item.get_closest_marker("slow"):
        return "slow"
    path = str(item.fspath)
    if "/tests/browser/" in path:
        return "browser"
    if path.endswith("tests/engines/test_conformance.py"):
        return "conformance"
    return "short"


def share_sizes(total: int, workers: int) -> list[int]:
    sizes = []
    for i in range(workers):
        sizes.append((total - sum(sizes)) // (workers - i))
    return sizes


def worker_shares(items: list, workers: int) -> list:
    """``items`` reordered so that each worker's first share holds about as much long work as the others'."""
    kinds = {id(item): kind_of(item) for item in items}
    if workers < 2:
        rank = list(WEIGHTS)
        return sorted(items, key=lambda item: rank.index(kinds[id(item)]) if kinds[id(item)] in WEIGHTS
                      else len(rank))  # one process: still the long ones first
    groups: dict[tuple, list] = {}
    short = []
    for item in items:
        kind = kinds[id(item)]
        if kind == "short":
            short.append(item)
        else:
            key = (kind, str(item.fspath)) if kind == "browser" else (kind, item.nodeid)
            groups.setdefault(key, []).append(item)

    def weight(group: list) -> int:
        return WEIGHTS[kinds[id(group[0])]] * len(group)

    ordered = sorted(groups.values(), key=lambda g: -weight(g))
    shares: list[list] = [[] for _ in range(workers)]
    loads = [0] * workers
    for group in ordered:  # the heaviest group to the least loaded share (longest processing time first)
        i = loads.index(min(loads))
        shares[i] += group
        loads[i] += weight(group)
    for share, size in zip(shares, share_sizes(len(items), workers), strict=True):
        while len(share) < size and short:
            share.append(short.pop(0))
    shares[-1] += short
    return [item for share in shares for item in share]
