"""run_tournament with a real Celery worker: matches go through Redis and are played by another process.

The test starts ``celery worker --pool solo`` in a subprocess pointed at the same PostgreSQL test
database and a Redis database of its own, makes this process's Celery app non-eager so ``delay()``
really publishes, runs the command, and checks that every entry was played by the worker's pid.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid

import pytest
import redis
from django.conf import settings
from django.core.management import call_command

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.models import Tournament, TournamentMatch
from gameplay.celery import app as celery_app
from gameplay.models import Match
from tests.support.live_server import ROOT, server_env

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS_DB = 5  # this module's own Redis database (test_two_daphne uses 3); flushed after the test
SECOND_AGENT = "random-b"

# The worker needs the same second agent name as this process ("random" is the only built-in that
# plays Santorini, and a tournament needs two distinct agents), so it registers it before starting.
WORKER_MAIN = f"""
import sys
from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent

class OtherRandom(RandomAgent):
    name = {SECOND_AGENT!r}

registry.AGENTS[OtherRandom.name] = OtherRandom
from gameplay.celery import app
app.worker_main(sys.argv[1:])
"""


class OtherRandom(RandomAgent):
    name = SECOND_AGENT


def services_required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("REQUIRE_SERVICES") == "1"


def missing(message: str):
    if services_required():
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing("REDIS_URL not set (the tournament worker test needs Redis as the Celery broker)")
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        missing("DATABASE_URL does not name PostgreSQL (the worker and the test must share a database)")
    parts = urllib.parse.urlsplit(url)
    url = urllib.parse.urlunsplit(parts._replace(path=f"/{REDIS_DB}"))
    client = redis.Redis.from_url(url)
    client.ping()  # fail here, clearly, rather than as a command waiting for matches that never come
    yield url
    client.flushdb()  # the worker queues leaderboard refreshes nobody will consume here
    client.close()


def worker_database_url() -> str:
    """The URL of the database this test runs in (pytest-django's test database, not DATABASE_URL's)."""
    db = settings.DATABASES["default"]
    auth = urllib.parse.quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + urllib.parse.quote(db["PASSWORD"], safe="")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{auth}@{host}/{urllib.parse.quote(db['NAME'], safe='')}"


@pytest.fixture
def queue() -> str:
    return f"tournament-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def worker(transactional_db, redis_url, queue, tmp_path):
    """A Celery worker process on the test database; stopped before the database is flushed."""
    log_path = tmp_path / "worker.log"
    env = server_env(worker_database_url(), redis_url, CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="INFO")
    # One process, one task at a time (--pool solo): the pid it records is the pid we started.
    argv = ["worker", "--pool", "solo", "--concurrency", "1", "-Q", queue, "--loglevel", "INFO"]
    argv += ["--hostname", f"{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", WORKER_MAIN, *argv], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        while b" ready." not in log_path.read_bytes():
            if proc.poll() is not None:
                raise RuntimeError(f"the worker exited early with code {proc.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("the worker did not become ready within 60 s")
            time.sleep(0.2)
        yield proc, log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        print(f"--- worker log\n{log_path.read_text(errors='replace')[-6000:]}")  # shown when the test fails


@pytest.fixture
def publish_to_redis(redis_url, queue, monkeypatch):
    """This process's Celery app publishes to the worker's broker and queue instead of running tasks."""
    conf = celery_app.conf
    monkeypatch.setattr(conf, "task_always_eager", False)
    monkeypatch.setattr(conf, "broker_url", redis_url)
    monkeypatch.setattr(conf, "task_default_queue", queue)
    _drop_connection_pools()  # pools built earlier would still point at the old broker
    yield
    _drop_connection_pools()


def _drop_connection_pools() -> None:
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_run_tournament_matches_are_played_by_the_worker_process(worker, publish_to_redis, monkeypatch, capsys):
    proc, log_path = worker
    monkeypatch.setitem(registry.AGENTS, OtherRandom.name, OtherRandom)

    call_command(
        "run_tournament",
        "--game", "santorini",
        "--agents", f"random,{SECOND_AGENT}",
        "--matches", "2",
        "--seed", "2024",
        "--poll", "0.2",
        "--timeout", "120",
    )  # fmt: skip

    out, err = capsys.readouterr()
    assert "[##############################] 2/2 matches finished, 0 failed" in err
    assert f"random vs {SECOND_AGENT}: 2 matches" in out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    entries = list(tournament.entries.select_related("match").order_by("index"))
    assert [e.seat_agents for e in entries] == [["random", SECOND_AGENT], [SECOND_AGENT, "random"]]
    for entry in entries:
        assert entry.status == TournamentMatch.Status.FINISHED, entry.error
        assert entry.match.status == Match.Status.FINISHED and entry.match.seed == entry.seed
        # Played in the worker's own process, not in this one.
        assert entry.played_by == f"{socket.gethostname()}:{proc.pid}"
        assert entry.played_by != f"{socket.gethostname()}:{os.getpid()}"
    log = log_path.read_text(errors="replace")
    assert log.count("agents_app.play_tournament_match[") >= 2 and "succeeded" in log
