"""run_protocol with two real Celery workers, one of them killed in the middle of a match.

Two ``celery worker --pool solo`` processes on the PostgreSQL test database take the protocol's matches from a
Redis database of this module's own; a scripted OpenAI-compatible server (in this process) plays the language-model
seat. Once the first worker is playing a match that has begun, it is killed (SIGKILL, no goodbye). The command
sees that the process playing the match is gone, queues the match again, and the other worker finishes that same
match: every match finishes, none is created twice, and the report is written.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.db import connection

from agents_app.management.commands import run_protocol
from agents_app.models import TournamentMatch
from gameplay.models import Event, Match
from tests.support.benchmark_model import BenchmarkModel
from tests.support.celery_worker import (
    own_redis_database,
    publishing_to,
    start_worker,
    stop_worker,
    worker_database_url,
)
from tests.support.live_server import server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS_DB = 13  # this module's own Redis database (see the other tests/integration modules); flushed after the test
WORKER_MAIN = "import sys\nfrom gameplay.project.celery import app\napp.worker_main(sys.argv[1:])\n"
REPLY_DELAY_S = 0.03  # a model that takes a moment, so that a match lasts long enough to be interrupted


class SlowModel(BenchmarkModel):
    def __call__(self, body: dict) -> ScriptedReply:
        reply = super().__call__(body)
        return ScriptedReply(content=reply.content, logprobs=reply.logprobs, delay=REPLY_DELAY_S)


@pytest.fixture
def redis_url() -> Iterator[str]:
    with own_redis_database(REDIS_DB, "the protocol workers test") as url:
        yield url


@pytest.fixture
def queue() -> str:
    return f"protocol-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def workers(transactional_db, redis_url, queue, tmp_path):
    env = server_env(worker_database_url(), redis_url, CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="INFO")
    started = []
    try:
        for n in (1, 2):
            argv = ["worker", "--pool", "solo", "--concurrency", "1", "-Q", queue, "--loglevel", "INFO",
                    "--hostname", f"w{n}-{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
            log_path = tmp_path / f"worker{n}.log"
            started.append((start_worker(WORKER_MAIN, argv, env, log_path), log_path))
        yield started
    finally:
        for proc, log_path in started:
            stop_worker(proc, log_path)


def kill_when_playing(proc, stop: threading.Event, killed: dict) -> None:
    """SIGKILL ``proc`` once a match it plays has at least two moves; note which entry and match it held."""
    mine = f"{socket.gethostname()}:{proc.pid}"
    try:
        while not stop.is_set():
            entry = TournamentMatch.objects.filter(status="running", played_by=mine, match__isnull=False).first()
            if entry is not None and Event.objects.filter(match_id=entry.match_id).count() >= 3:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                killed.update(entry=entry.pk, match=entry.match_id)
                return
            time.sleep(0.05)
    finally:
        connection.close()  # this thread's own connection, or the test database cannot be dropped


def test_a_protocol_survives_a_killed_worker_and_plays_no_match_twice(
    workers, redis_url, queue, monkeypatch, tmp_path, capsys
):
    (first, _), (second, _) = workers
    monkeypatch.setattr(run_protocol, "REQUEUE_EVERY_S", 0.5)
    with scripted_openai_server(SlowModel()) as server, publishing_to(redis_url, queue, monkeypatch):
        path = tmp_path / "protocol.json"
        path.write_text(json.dumps({
            "format": 1, "name": "two-workers", "version": "1",
            "agents": ["random", {"name": "scripted-llm", "llm": {
                "base_url": server.base_url, "model": "scripted-model", "api_key_env": "", "http_retries": 0}}],
            "games": [{"game": "santorini", "options": {"max_turns": 24}}],
            "matches_per_pair": 3, "seeds": [5, 6],
            "rating": {"bootstrap": 20},
            "prices": {"scripted-model": {"prompt_per_million": 1, "completion_per_million": 2}},
            "output": {"directory": str(tmp_path / "out")},
        }))
        stop, killed = threading.Event(), {}
        killer = threading.Thread(target=kill_when_playing, args=(first, stop, killed), daemon=True)
        killer.start()
        try:
            call_command("run_protocol", str(path), "--poll", "0.2", "--timeout", "240")
        finally:
            stop.set()
            killer.join(timeout=5)
    out = capsys.readouterr().out
    assert killed, "the first worker was never seen playing a match"
    assert "Queued again 1 lost matches" in out
    entries = list(TournamentMatch.objects.select_related("match"))
    assert len(entries) == 6 and all(e.status == "finished" for e in entries)
    # One match per entry, ever: the interrupted one was continued, not started again.
    assert Match.objects.count() == 6
    resumed = next(e for e in entries if e.pk == killed["entry"])
    assert resumed.match_id == killed["match"] and resumed.match.status == Match.Status.FINISHED
    assert resumed.played_by == f"{socket.gethostname()}:{second.pid}"
    report = json.loads((tmp_path / "out/report.json").read_text())
    assert report["progress"]["all"]["finished"] == 6 and report["models"][0]["calls"] > 0
