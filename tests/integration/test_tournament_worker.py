"""run_tournament with a real Celery worker: matches go through Redis and are played by another process.

The test starts ``celery worker --pool solo`` in a subprocess pointed at the same PostgreSQL test
database and a Redis database of its own, makes this process's Celery app non-eager so ``delay()``
really publishes, runs the command, and checks that every entry was played by the worker's pid.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator

import pytest
from django.core.management import call_command

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.models import Tournament, TournamentMatch
from gameplay.models import Match
from tests.support.celery_worker import (
    own_redis_database,
    publishing_to,
    start_worker,
    stop_worker,
    worker_database_url,
)
from tests.support.live_server import server_env

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
from gameplay.project.celery import app
app.worker_main(sys.argv[1:])
"""


class OtherRandom(RandomAgent):
    name = SECOND_AGENT


@pytest.fixture
def redis_url() -> Iterator[str]:
    with own_redis_database(REDIS_DB, "the tournament worker test") as url:
        yield url


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
    proc = start_worker(WORKER_MAIN, argv, env, log_path)
    try:
        yield proc, log_path
    finally:
        stop_worker(proc, log_path)


@pytest.fixture
def publish_to_redis(redis_url, queue, monkeypatch):
    with publishing_to(redis_url, queue, monkeypatch):
        yield


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
