"""Real Celery workers for integration tests: a Redis database of the test's own, worker processes on the
PostgreSQL test database, and this process's Celery app publishing to them instead of running tasks eagerly.

Used by tests/integration/test_tournament_worker.py and test_agent_turn_recovery.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import kombu.pools
import redis
from django.conf import settings

from tests.support.live_server import ROOT
from tests.support.services import missing

READY_TIMEOUT_S = 60


@contextmanager
def own_redis_database(db: int, needed_by: str) -> Iterator[str]:
    """REDIS_URL pointed at database ``db`` (each test module its own), emptied before and after; the test also
    needs DATABASE_URL to name PostgreSQL, which the worker processes share with it."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing(f"REDIS_URL not set ({needed_by} needs Redis as the Celery broker)")
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        missing("DATABASE_URL does not name PostgreSQL (the worker and the test must share a database)")
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path=f"/{db}"))
    client = redis.Redis.from_url(url)
    client.ping()  # fail here, clearly, rather than as a test waiting for work that never comes
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()  # whatever the workers left: unacknowledged messages, queued refreshes, beat's sweeps
        client.close()


def worker_database_url() -> str:
    """The URL of the database this test runs in (pytest-django's test database, not DATABASE_URL's)."""
    db = settings.DATABASES["default"]
    auth = urllib.parse.quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + urllib.parse.quote(db["PASSWORD"], safe="")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{auth}@{host}/{urllib.parse.quote(db['NAME'], safe='')}"


def start_worker(main: str, argv: Sequence[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """``python -c main *argv`` (a script ending in ``app.worker_main``), in a session of its own so that killing
    its group also kills its pool processes; returns once the worker logs that it is ready."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", main, *argv],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + READY_TIMEOUT_S
    while b" ready." not in log_path.read_bytes():
        if proc.poll() is not None:
            raise RuntimeError(f"the worker exited early with code {proc.returncode}")
        if time.monotonic() > deadline:
            stop_worker(proc, log_path)
            raise RuntimeError(f"the worker did not become ready within {READY_TIMEOUT_S} s")
        time.sleep(0.2)
    return proc


def stop_worker(proc: subprocess.Popen, log_path: Path) -> None:
    """Stop the worker and its pool processes, then print the end of its log (pytest shows it when a test fails)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    print(f"--- {log_path.name}\n{log_path.read_text(errors='replace')[-6000:]}")


@contextmanager
def publishing_to(redis_url: str, queue: str, monkeypatch, routes: dict | None = None) -> Iterator[None]:
    """This process's Celery app publishes to the workers' broker and queue instead of running tasks; ``routes``
    (the site's CELERY_TASK_ROUTES, say) sends some tasks elsewhere, by default none: all go to ``queue``."""
    from gameplay.project.celery import app as celery_app

    conf = celery_app.conf
    monkeypatch.setattr(conf, "task_always_eager", False)
    monkeypatch.setattr(conf, "broker_url", redis_url)
    monkeypatch.setattr(conf, "task_default_queue", queue)
    # By default background tasks too go to the test's queue, its workers' only one.
    monkeypatch.setattr(conf, "task_routes", routes or {})
    _flush_routes(celery_app)
    _drop_connection_pools(celery_app)
    try:
        yield
    finally:
        _drop_connection_pools(celery_app)
        _flush_routes(celery_app)


def _flush_routes(celery_app) -> None:
    """Celery builds its router from task_routes once; build it again from the current configuration."""
    celery_app.amqp.__dict__.pop("router", None)
    celery_app.amqp._rtable = None


def _drop_connection_pools(celery_app) -> None:
    """Pools built earlier point at another broker, or were closed by the previous test; kombu also keeps a
    process-wide producer pool per broker URL, which would hand the next test a closed pool."""
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    kombu.pools.reset()
