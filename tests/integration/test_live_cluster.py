"""Live Atari Boxing on the production topology (issue 20): daphne with the Redis channel layer and cache, and a real
Celery worker that runs the match's clock (gameplay.tasks.run_live_bout) and the scripted boxer's turns, on the
PostgreSQL test database. A person's websocket (a plain client here) holds inputs and counts the frames that
arrive; the numbers are printed (the closing note quotes them) and the floor of the issue is asserted: at least 30
frames a second, and every input shown by a frame.
"""

from __future__ import annotations

import json
import re
import statistics
import struct
import time
import urllib.parse
import urllib.request

import pytest
from websockets.sync.client import connect as ws_connect

from gameplay.models import Event, Match
from tests.integration.http_support import open_new_match_form, socket_cookie, ws_url
from tests.support.celery_worker import own_redis_database, start_worker, stop_worker, worker_database_url
from tests.support.live_server import daphne_server, server_env

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS_DB = 9  # this module's own Redis database (see the other tests/integration modules); flushed after
WORKER_MAIN = """
import sys
from gameplay.project.celery import app
app.worker_main(sys.argv[1:])
"""
MEASURE_SECONDS = 6
TIMEOUT = 20


@pytest.fixture
def cluster(transactional_db, tmp_path):
    """A Celery worker (three processes: the clock and agent turns at once) and a daphne server, sharing the test
    database and a Redis database."""
    with own_redis_database(REDIS_DB, "the live cluster test") as redis_url:
        env = server_env(worker_database_url(), redis_url, CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="INFO")
        worker_log, daphne_log = tmp_path / "worker.log", tmp_path / "daphne.log"
        argv = ["worker", "--pool", "prefork", "--concurrency", "3", "--loglevel", "INFO",
                "--without-gossip", "--without-mingle", "--without-heartbeat"]
        worker = start_worker(WORKER_MAIN, argv, env, worker_log)
        try:
            with daphne_server({**env, "LOG_LEVEL": "WARNING"}, log_path=daphne_log) as base:
                yield base
        finally:
            stop_worker(worker, worker_log)
            if daphne_log.exists():
                print(f"--- {daphne_log.name}\n{daphne_log.read_text(errors='replace')[-4000:]}")


def _new_live_bout(base: str) -> tuple[str, dict[str, str]]:
    """A person (seat 0, White) against the scripted boxer for 8 seconds of game time, created through the
    new-match form."""
    jar, opener, form_url, csrf = open_new_match_form(base, "atari_boxing", TIMEOUT)
    fields = {"csrfmiddlewaretoken": csrf, "seat_0": "you", "seat_1": "agent:boxer", "seed": "5",
              "opt_frames_per_decision": "15", "opt_live": "on", "opt_max_frames": "480"}
    request = urllib.request.Request(form_url, data=urllib.parse.urlencode(fields).encode(),
                                     headers={"Referer": form_url, "Origin": base})
    with opener.open(request, timeout=TIMEOUT) as response:
        token = re.fullmatch(rf"{re.escape(base)}/play/([^/]+)/", response.geturl()).group(1)
    return token, socket_cookie(jar, token)


def test_a_worker_runs_the_clock_and_frames_reach_the_person_at_game_speed(cluster):
    base = cluster
    token, cookie = _new_live_bout(base)
    arrivals, deliveries, latencies = [], [], []
    pressed: dict[int, float] = {}
    seq = 0
    with ws_connect(ws_url(base, token), origin=base, open_timeout=TIMEOUT, additional_headers=cookie,
                    max_size=None) as ws:
        assert isinstance(ws.recv(timeout=TIMEOUT), str)  # the page's first view
        started = None
        while True:
            message = ws.recv(timeout=TIMEOUT)
            if isinstance(message, str):
                continue  # the score line redrawn after a decision point
            now = time.time()
            _frame, reflected, sent_ms = struct.unpack(">III", message[:12])
            assert message[12:20] == b"\x89PNG\r\n\x1a\n"
            started = started or now
            arrivals.append(now)
            deliveries.append((int(now * 1000) % 2**32) - sent_ms)
            for counter in [c for c in pressed if c <= reflected]:
                latencies.append((now - pressed.pop(counter)) * 1000)
            if now - started > MEASURE_SECONDS:
                break
            if len(arrivals) % 30 == 0:  # a new input every half second
                seq += 1
                pressed[seq] = time.time()
                ws.send(json.dumps({"kind": "live", "action_id": ("rightfire", "down", "upleft")[seq % 3],
                                    "seq": seq}))
    seconds = arrivals[-1] - arrivals[0]
    per_second = [sum(1 for t in arrivals if arrivals[0] + i <= t < arrivals[0] + i + 1) for i in range(int(seconds))]
    print(f"\nlive cluster (daphne + Redis layer + Celery worker clock): {len(arrivals)} frames in {seconds:.1f} s "
          f"= {len(arrivals) / seconds:.1f} frames/s; per second {per_second}; median delivery "
          f"{statistics.median(deliveries)} ms; median input-to-frame {statistics.median(latencies):.0f} ms over "
          f"{len(latencies)} inputs")
    assert len(arrivals) / seconds >= 30 and statistics.median(per_second) >= 30, per_second
    assert len(latencies) >= seq - 1  # every input but perhaps the newest was shown by a frame
    match = Match.objects.get(seats__token=token)
    for _ in range(100):  # the 8-second bout ends on the clock, and the worker's task with it
        if match.status != Match.Status.ACTIVE:
            break
        time.sleep(0.2)
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    events = Event.objects.filter(match=match, kind=Event.Kind.ACTION)
    assert events.filter(seat=0, payload__live_input_seq__gte=1).exists()  # the person's inputs, from the clock
    assert events.filter(seat=1, payload__agent="boxer").exists()  # the boxer's turns, by the worker
