"""A dead agent task does not stall its match: kill -9 the worker's pool process (or the whole worker) mid-turn.

A real ``celery worker`` (prefork pool, one process) runs in a subprocess on the PostgreSQL test database and a
Redis database of its own, with Celery beat embedded (-B) so the stalled-turn watchdog sweeps every second. The
worker registers an agent that sleeps on its first decision (and writes its pid to a marker file first), so the
test knows which process is in the middle of the turn and kills it.

On the old code both tests fail: the message was acknowledged when the worker took it, so a killed process took
the turn with it; nothing announced the turn again; the match stayed at version 0 for good.
- Pool process killed: late acknowledgement with reject-on-worker-lost puts the message back at once, and the
  watchdog would re-announce the turn after the deadline anyway.
- Whole worker killed: its message stays unacknowledged in Redis until the visibility timeout (an hour); only
  the watchdog of the worker started next announces the turn again once the deadline has passed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from gameplay.models import Match
from gameplay.writes import services
from tests.support.celery_worker import (
    own_redis_database,
    publishing_to,
    stop_worker,
    worker_database_url,
)
from tests.support.celery_worker import start_worker as start_worker_process
from tests.support.live_server import server_env

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS_DB = 7  # this module's own Redis database (test_two_daphne uses 3, test_tournament_worker 5); flushed after
SLOW_AGENT = "slow-first-turn"
DEADLINE_S = 6  # AGENT_TURN_DEADLINE_SECONDS of the worker
SWEEP_S = 1  # AGENT_WATCHDOG_INTERVAL_SECONDS of the worker
# A loaded 2-core machine may take a while to fork a new pool process, import Django and play the move.
MARGIN_S = 20

# The worker registers the slow agent, and sends every task (its own watchdog sweeps and the agent turns they
# queue) to the test's queue, before starting.
WORKER_MAIN = f"""
import os, sys, time
from pathlib import Path
from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent

MARKER = Path(os.environ["SLOW_AGENT_MARKER"])

class SlowFirstTurn(RandomAgent):
    name = {SLOW_AGENT!r}

    def decide(self, view):
        if not MARKER.exists():
            partial = MARKER.with_suffix(".tmp")
            partial.write_text(str(os.getpid()))
            partial.rename(MARKER)  # whole or absent: the test never reads half a pid
            time.sleep(120)  # killed long before
        return super().decide(view)

registry.AGENTS[SlowFirstTurn.name] = SlowFirstTurn
from gameplay.project.celery import app
app.conf.task_default_queue = os.environ["TEST_QUEUE"]
app.worker_main(sys.argv[1:])
"""


class SlowFirstTurn(RandomAgent):
    """This process only needs the name to exist (create_match checks it); the worker plays the turns."""

    name = SLOW_AGENT


@pytest.fixture
def redis_url() -> Iterator[str]:
    with own_redis_database(REDIS_DB, "the agent turn recovery test") as url:
        yield url


@pytest.fixture
def queue() -> str:
    return f"agent-turn-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def start_worker(transactional_db, redis_url, queue, tmp_path):
    """Starts workers (prefork, one pool process, beat embedded) on the test database; all stopped at the end."""
    started: list[tuple[subprocess.Popen, Path]] = []
    env = server_env(
        worker_database_url(), redis_url,
        CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="INFO", TEST_QUEUE=queue,
        SLOW_AGENT_MARKER=str(tmp_path / "slow-agent.pid"),
        AGENT_TURN_DEADLINE_SECONDS=str(DEADLINE_S), AGENT_WATCHDOG_INTERVAL_SECONDS=str(SWEEP_S),
    )  # fmt: skip

    def start() -> tuple[subprocess.Popen, Path]:
        n = len(started) + 1
        log_path = tmp_path / f"worker-{n}.log"
        argv = ["worker", "--pool", "prefork", "--concurrency", "1", "-Q", queue, "--loglevel", "INFO"]
        argv += ["--hostname", f"{queue}-{n}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        argv += ["-B", "--schedule", str(tmp_path / f"beat-schedule-{n}")]
        started.append((start_worker_process(WORKER_MAIN, argv, env, log_path), log_path))
        return started[-1]

    try:
        yield start
    finally:
        for proc, log_path in started:
            stop_worker(proc, log_path)


@pytest.fixture
def publish_to_redis(redis_url, queue, monkeypatch):
    with publishing_to(redis_url, queue, monkeypatch):
        yield


@contextmanager
def waiting(what: str, seconds: float):
    """Yields a poll function that fails the test with ``what`` once ``seconds`` have passed."""
    deadline = time.monotonic() + seconds

    def poll() -> None:
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {seconds:g} s")
        time.sleep(0.2)

    yield poll


def agent_match(monkeypatch) -> Match:
    """A Santorini match whose first turn is the slow agent's (seat 0); seat 1 is a person who never moves."""
    monkeypatch.setitem(registry.AGENTS, SLOW_AGENT, SlowFirstTurn)
    controllers = [services.SeatController("agent", agent_name=SLOW_AGENT), services.SeatController("human")]
    match = services.create_match("santorini", controllers, seed=11)  # announces the agent's turn: to Redis
    assert match.version == 0
    return match


def pid_in_turn(marker: Path, worker: subprocess.Popen) -> int:
    """The pid the slow agent wrote once its turn started: a pool process of ``worker``, not the worker itself."""
    with waiting("the agent's turn did not start in the worker", 45) as poll:
        while not marker.exists():
            if worker.poll() is not None:
                pytest.fail(f"the worker exited with code {worker.returncode}")
            poll()
    pid = int(marker.read_text())
    assert pid != worker.pid and _parent_of(pid) == worker.pid, "the turn should run in a pool process"
    return pid


def _parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])  # the field after the state letter; the name may hold spaces


def wait_for_move(match: Match, seconds: float) -> float:
    started = time.monotonic()
    with waiting(f"match {match.pk} did not move again", seconds) as poll:
        while Match.objects.get(pk=match.pk).version == 0:
            poll()
    return time.monotonic() - started


def test_killing_the_pool_process_mid_turn_leaves_the_match_moving(start_worker, publish_to_redis, monkeypatch,
                                                                    tmp_path):
    worker, log_path = start_worker()
    match = agent_match(monkeypatch)
    pid = pid_in_turn(tmp_path / "slow-agent.pid", worker)
    os.kill(pid, signal.SIGKILL)

    took = wait_for_move(match, DEADLINE_S + SWEEP_S + MARGIN_S)

    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.version >= 1
    first = match.events.filter(kind="action").order_by("seq").first()
    assert first.seat == 0 and first.payload["agent"] == SLOW_AGENT  # the agent's own move, played once
    assert match.events.filter(kind="action", version=1).count() == 1
    assert worker.poll() is None, "the worker itself survives the loss of its pool process"
    print(f"moved again {took:.1f} s after the pool process was killed")


def test_killing_the_whole_worker_mid_turn_the_next_worker_plays_the_turn(start_worker, publish_to_redis,
                                                                          monkeypatch, tmp_path):
    first_worker, _ = start_worker()
    match = agent_match(monkeypatch)
    pid_in_turn(tmp_path / "slow-agent.pid", first_worker)
    os.killpg(first_worker.pid, signal.SIGKILL)  # worker and pool process: nobody rejects the message
    first_worker.wait(timeout=10)

    start_worker()  # its message stays unacknowledged in Redis: only the watchdog gives the turn back
    wait_for_move(match, DEADLINE_S + SWEEP_S + MARGIN_S)

    match.refresh_from_db()
    assert match.version >= 1 and match.events.filter(kind="action", version=1).count() == 1
