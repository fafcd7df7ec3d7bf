"""A flood of leaderboard computations from one client does not slow an agent down (issue 37, point 1).

The production setup of gameplay/CONFIGURATION.md, for real: daphne serves the site and two Celery workers run on
the PostgreSQL test database and a Redis database of the test's own, started with the documented commands,
``celery -A gameplay worker -B`` for the default queue (agent turns) and ``celery -A gameplay worker -Q background
-c 1`` for batch work (leaderboard computations). The leaderboard has 36 finished Hive matches of four agents, so
each computation (RATING_BOOTSTRAP's 10,000 resamples) takes more than half a second of one core.

One client (urllib with a cookie jar, CSRF token from the page, as a browser's compute button sends it) POSTs 200
computations for 200 different selections as fast as daphne answers, while a person plays Santorini against the
random agent through the match service and its turns run on the worker. Each reply is timed from the person's
move committed to the agent's action in the match's event log (polled from the database).

On the old code (every task on one queue, no limit on asking) all 200 computations were queued in front of the
agent's next turn: its reply took as long as the whole backlog (tens of seconds). Now the address may ask
RATING_REQUESTS_PER_MINUTE times a minute and at most RATING_OPEN_REQUESTS computations wait (the rest get 429), and
those run on the background worker: every reply stays under a second.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.conf import settings

from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from rating_app.models import RefreshRequest
from tests.rating_app.factories import finished
from tests.support.celery_worker import (
    own_redis_database,
    publishing_to,
    start_worker,
    stop_worker,
    worker_database_url,
)
from tests.support.live_server import daphne_server, server_env

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS_DB = 11  # this module's own Redis database (see the other tests/integration modules); flushed after
BOTS = [f"bot-{n}" for n in range(4)]  # the rated agents: every ordered pair meets three times
ROUNDS = 3
RATED_GAME = "hive"
FLOOD = 200  # leaderboard POSTs, each a selection of its own
TURNS = 10  # agent replies measured at least, from the flood's start (more while it lasts)
REPLY_LIMIT_S = 1.0
REPLY_WAIT_S = 120  # give up on a reply after this long (the old code's waited for the whole backlog)
POLL_S = 0.01
GAME, PERSON, AGENT_SEAT, AGENT = "santorini", 0, 1, "random"

# `celery -A gameplay worker ...`, as CONFIGURATION.md starts the workers.
CELERY_MAIN = """
import sys
from celery.__main__ import main
sys.argv = ["celery", "-A", "gameplay", *sys.argv[1:]]
main()
"""
QUIET = ["--without-gossip", "--without-mingle", "--without-heartbeat"]  # as the other worker tests: starts sooner


def worker_commands(tmp_path: Path) -> dict[str, list[str]]:
    """CONFIGURATION.md's two workers: agent turns (default queue, beat embedded for the stalled-turn watchdog),
    and the background queue with one process."""
    return {
        "turns": ["worker", "-B", "--schedule", str(tmp_path / "beat-schedule"), "-l", "info", "-n", "turns@%h"],
        "background": ["worker", "-Q", settings.BACKGROUND_TASK_QUEUE, "-c", "1", "-l", "info", "-n", "background@%h"],
    }


@pytest.fixture
def redis_url() -> Iterator[str]:
    with own_redis_database(REDIS_DB, "the leaderboard flood test") as url:
        yield url


@pytest.fixture
def site(transactional_db, redis_url, tmp_path):
    """daphne and the workers on the test database; all stopped before the database is flushed. Yields the base URL,
    the workers (name -> process and log) and daphne's log."""
    env = server_env(worker_database_url(), redis_url, CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="INFO")
    workers: dict[str, tuple[subprocess.Popen, Path]] = {}
    daphne_log = tmp_path / "daphne.log"
    try:
        for name, argv in worker_commands(tmp_path).items():
            log_path = tmp_path / f"worker-{name}.log"
            workers[name] = (start_worker(CELERY_MAIN, argv + QUIET, env, log_path), log_path)
        with daphne_server({**env, "LOG_LEVEL": "WARNING"}, log_path=daphne_log) as base:
            yield base, workers, daphne_log
    finally:
        for proc, log_path in workers.values():
            stop_worker(proc, log_path)
        if daphne_log.exists():
            print(f"--- daphne.log\n{daphne_log.read_text(errors='replace')[-3000:]}")


@pytest.fixture
def publish_to_redis(redis_url, monkeypatch):
    """This process queues agent turns as the site does: the default queue on the test's broker, batch work routed
    as configured."""
    from gameplay.project.celery import app as celery_app

    with publishing_to(redis_url, celery_app.conf.task_default_queue, monkeypatch, routes=settings.CELERY_TASK_ROUTES):
        yield


def league() -> None:
    """36 finished matches of four agents (each ordered pair three times), the stronger bot winning 3 in 4."""
    rng = random.Random(37)
    at = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
    for _ in range(ROUNDS):
        for first in BOTS:
            for second in BOTS:
                if first != second:
                    stronger_first = BOTS.index(first) > BOTS.index(second)
                    first_wins = stronger_first == (rng.random() < 0.75)
                    finished([first, second], [1.0, 0.0] if first_wins else [0.0, 1.0], game=RATED_GAME, at=at)


def selection(n: int) -> str:
    """The nth selection: a since= date of its own, and some with games, agents or an end date too; each still
    holds every match of the league (all finished in June 2026), so each is a whole computation."""
    params = [("source", "platform"), ("since", str(dt.date(2025, 1, 1) + dt.timedelta(days=n)))]
    if n % 4 == 1:
        params.append(("games", RATED_GAME))
    elif n % 4 == 2:
        params += [("agents", a) for a in BOTS]
    elif n % 4 == 3:
        params.append(("until", "2030-12-31"))
    return urllib.parse.urlencode(params)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the 302 is the answer counted; the page it leads to is not fetched


def flood(base: str, count: int, posting: threading.Event) -> tuple[Counter, float]:
    """``count`` compute-button POSTs from one client, one after another as fast as they are answered (``posting`` is
    set as the first is sent): their status codes, and the seconds they took."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect)
    with opener.open(f"{base}/ratings/?{selection(count)}", timeout=30) as page:  # sets the CSRF cookie
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())[1]
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode()
    statuses: Counter = Counter()
    started = time.monotonic()
    posting.set()
    for n in range(count):
        request = urllib.request.Request(f"{base}/ratings/?{selection(n)}", data=body, method="POST")
        try:
            with opener.open(request, timeout=60) as answer:
                statuses[answer.status] += 1
        except urllib.error.HTTPError as answer:  # 302 (not followed) and 429
            statuses[answer.code] += 1
            answer.close()
    return statuses, time.monotonic() - started


class Table:
    """A person (seat 0) against the random agent (seat 1) at Santorini; a new match whenever one ends."""

    def __init__(self):
        self.seed = 100
        self.match = self._new_match()
        self.rng = random.Random(11)

    def _new_match(self) -> Match:
        self.seed += 1
        controllers = [services.SeatController("human"), services.SeatController("agent", agent_name=AGENT)]
        return services.create_match(GAME, controllers, seed=self.seed)

    def _persons_turn(self) -> Match:
        """The match once the person is to move (a new one if it ended)."""
        deadline = time.monotonic() + REPLY_WAIT_S
        while True:
            match = Match.objects.get(pk=self.match.pk)
            if match.status != Match.Status.ACTIVE:
                self.match = self._new_match()
            elif PERSON in state_of(match).current_seats():
                return match
            elif time.monotonic() > deadline:
                pytest.fail(f"the agent did not hand match {match.pk} back within {REPLY_WAIT_S} s")
            time.sleep(POLL_S)

    def agent_reply(self) -> float:
        """The person moves until a move hands the agent its turn; seconds from that move committed to the agent's
        action in the event log (REPLY_WAIT_S if it never came)."""
        while True:
            match = self._persons_turn()
            action = self.rng.choice(state_of(match).legal_actions(PERSON)).id
            moved = services.submit_action(match.pk, PERSON, action, expected_version=match.version)
            committed = time.monotonic()
            if moved.status == Match.Status.ACTIVE and AGENT_SEAT in state_of(moved).current_seats():
                break  # else the person moves again (a Santorini turn is a move, then a build), or the match ended
        replied = Event.objects.filter(
            match_id=moved.pk, kind=Event.Kind.ACTION, seat=AGENT_SEAT, version__gt=moved.version
        )
        while not replied.exists():
            if time.monotonic() - committed > REPLY_WAIT_S:
                return REPLY_WAIT_S
            time.sleep(POLL_S)
        return time.monotonic() - committed


def computing() -> bool:
    return RefreshRequest.objects.filter(finished_at__isnull=True).exists()


def test_a_flood_of_leaderboard_posts_leaves_the_agents_replies_fast(site, publish_to_redis):
    base, workers, daphne_log = site
    league()
    table = Table()
    quiet = [table.agent_reply() for _ in range(3)]  # the worker's first turns load the engine and the agent

    replies: list[float] = []
    while_computing = 0
    with ThreadPoolExecutor(1) as pool:
        posting = threading.Event()
        flooding = pool.submit(flood, base, FLOOD, posting)
        posting.wait(timeout=60)  # the client has opened the page (daphne's first request is slow): replies from now
        while (len(replies) < TURNS or not flooding.done()) and REPLY_WAIT_S not in replies:
            while_computing += computing()
            replies.append(table.agent_reply())
        statuses, flood_s = flooding.result()

    deadline = time.monotonic() + 60  # the accepted computations are carried out, on the background worker
    while computing() and time.monotonic() < deadline:
        time.sleep(0.2)
    requests = list(RefreshRequest.objects.values_list("finished_at", "error"))

    print(f"\nquiet: agent replies {', '.join(f'{s:.3f}' for s in quiet)} s")
    print(f"flood: {FLOOD} POSTs in {flood_s:.1f} s, status codes {dict(sorted(statuses.items()))}")
    print(
        f"during/after the flood: {len(replies)} agent replies ({while_computing} asked while a computation was "
        f"open), median {statistics.median(replies):.3f} s, max {max(replies):.3f} s"
    )
    print(f"replies: {', '.join(f'{s:.3f}' for s in replies)}")
    print(
        f"computations asked for: {len(requests)}, finished: {sum(f is not None for f, _ in requests)}, "
        f"failed: {sum(bool(e) for _, e in requests)}"
    )

    assert max(replies) < REPLY_LIMIT_S, f"an agent reply took {max(replies):.1f} s"
    limit = settings.RATING_REQUESTS_PER_MINUTE
    assert set(statuses) <= {302, 429} and sum(statuses.values()) == FLOOD
    assert 1 <= statuses[302] <= 2 * limit  # the flood may straddle two of the per-minute windows
    assert statuses[429] >= FLOOD - 2 * limit
    assert while_computing >= 1, "no reply was measured while the background worker was computing"
    assert requests and all(f is not None and not e for f, e in requests), "every accepted computation is done"
    for name, (proc, log_path) in workers.items():
        assert proc.poll() is None, f"the {name} worker exited"
        assert "Traceback" not in log_path.read_text(errors="replace"), f"the {name} worker logged a traceback"
    assert "Traceback" not in daphne_log.read_text(errors="replace"), "daphne logged a traceback"
