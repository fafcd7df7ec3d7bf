"""agents_app.turn_runner: with eager Celery, agent turns run on a pool thread, never on the announcing thread.

The rest of the suite plays turns inline (AGENT_TURNS_INLINE, on under pytest); these tests switch it off. The
end-to-end check on a real server is tests/agents_app/test_slow_agent_isolation.py.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from agents_app import tasks, turn_runner
from agents_app.receivers import queue_agent_turns
from agents_app.tasks import play_agent_turns
from agents_app.turn_runner import TurnRunner
from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

WAIT = 10.0  # generous bound on anything that should take milliseconds


class BlockingPlay:
    """A stand-in for play_agent_turns: records each run (match, thread) and blocks until released."""

    def __init__(self, fail_first: bool = False):
        self.release = threading.Event()
        self.started = threading.Semaphore(0)
        self.runs: list[tuple[int, str]] = []
        self.active: Counter = Counter()
        self.overlapped = False
        self.fail_first = fail_first
        self.lock = threading.Lock()

    def __call__(self, match_id: int) -> int:
        with self.lock:
            self.runs.append((match_id, threading.current_thread().name))
            self.active[match_id] += 1
            self.overlapped |= self.active[match_id] > 1
            first = len(self.runs) == 1
        self.started.release()
        try:
            assert self.release.wait(WAIT), "never released"
            if first and self.fail_first:
                raise RuntimeError("model exploded")
            return 1
        finally:
            with self.lock:
                self.active[match_id] -= 1

    def wait_started(self) -> None:
        assert self.started.acquire(timeout=WAIT), "the job never started"

    def matches(self) -> list[int]:
        return [match_id for match_id, _ in self.runs]


@pytest.fixture
def eager(monkeypatch, settings):
    monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
    settings.AGENT_TURNS_INLINE = False


@pytest.fixture
def new_runner():
    """Runners of the test's own, their threads stopped afterwards."""
    made: list[TurnRunner] = []

    def make(play, threads: int) -> TurnRunner:
        made.append(TurnRunner(play, threads))
        return made[-1]

    yield make
    for runner in made:
        assert runner.wait_idle(WAIT)
        runner.close()


@pytest.fixture
def fake_runner(monkeypatch, new_runner):
    play = BlockingPlay()
    runner = new_runner(play, threads=2)
    monkeypatch.setattr(turn_runner, "_runner", runner)
    yield play, runner
    play.release.set()


@pytest.fixture
def delayed(monkeypatch):
    ids: list[int] = []
    monkeypatch.setattr(play_agent_turns, "delay", lambda match_id: ids.append(match_id))
    return ids


def test_an_eager_announcement_returns_at_once_and_the_turn_runs_on_a_pool_thread(eager, fake_runner, delayed):
    play, runner = fake_runner
    started = time.monotonic()
    queue_agent_turns(sender=Match, match_id=7)
    assert time.monotonic() - started < 1.0  # the turn itself blocks until released
    play.wait_started()
    assert play.runs[0][0] == 7 and play.runs[0][1] != threading.current_thread().name
    assert runner.busy() and delayed == []
    play.release.set()
    assert runner.wait_idle(WAIT) and not runner.busy()


def test_with_a_broker_the_task_is_queued_for_a_worker(monkeypatch, settings, fake_runner, delayed):
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    settings.AGENT_TURNS_INLINE = False
    queue_agent_turns(sender=Match, match_id=7)
    assert delayed == [7] and fake_runner[0].runs == []


def test_inline_turns_go_through_eager_celery_as_before(monkeypatch, settings, fake_runner, delayed):
    monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
    settings.AGENT_TURNS_INLINE = True
    queue_agent_turns(sender=Match, match_id=7)
    assert delayed == [7] and fake_runner[0].runs == []


def test_announcements_while_a_match_is_played_make_one_more_run_never_a_concurrent_one(new_runner):
    play = BlockingPlay()
    runner = new_runner(play, threads=4)
    runner.submit(1)
    play.wait_started()
    runner.submit(1)  # e.g. the watchdog, or a simultaneous seat's move, while the job may be on its way out
    runner.submit(1)
    play.release.set()
    assert runner.wait_idle(WAIT)
    assert play.matches() == [1, 1] and not play.overlapped
    runner.submit(1)  # announced after the job finished: played again
    assert runner.wait_idle(WAIT)
    assert play.matches() == [1, 1, 1]


def test_an_announcement_for_a_match_whose_job_has_not_started_is_already_covered(new_runner):
    play = BlockingPlay()
    runner = new_runner(play, threads=1)
    runner.submit(1)
    play.wait_started()
    runner.submit(2)  # waits for the only thread
    runner.submit(2)
    play.release.set()
    assert runner.wait_idle(WAIT)
    assert play.matches() == [1, 2]


def test_other_matches_are_played_while_one_turn_is_slow(new_runner):
    play = BlockingPlay()
    runner = new_runner(play, threads=2)
    runner.submit(1)
    runner.submit(2)
    play.wait_started()
    play.wait_started()  # both at once: one slow match holds one thread, not the pool
    assert sorted(play.matches()) == [1, 2]
    play.release.set()
    assert runner.wait_idle(WAIT)


def test_a_failing_turn_is_logged_and_the_next_announcement_runs(caplog, new_runner):
    play = BlockingPlay(fail_first=True)
    play.release.set()
    runner = new_runner(play, threads=1)
    with caplog.at_level(logging.ERROR, logger="agents_app.turn_runner"):
        runner.submit(5)
        assert runner.wait_idle(WAIT)
    assert "agent turn of match 5 failed" in caplog.text and "model exploded" in caplog.text
    runner.submit(5)
    assert runner.wait_idle(WAIT)
    assert play.matches() == [5, 5]


async def test_a_turn_announced_from_a_served_thread_notifies_through_that_threads_event_loop(new_runner):
    """Channel-layer sends of the turn (async_to_sync in the match service) go to the loop whose sockets wait on
    the in-memory layer's queues, as if the turn ran in the consumer's sync_to_async thread."""
    loops = []

    async def record_loop():
        loops.append(asyncio.get_running_loop())

    runner = new_runner(lambda match_id: async_to_sync(record_loop)(), threads=1)
    await sync_to_async(runner.submit)(3)  # as a consumer's or view's synchronous code would
    assert await sync_to_async(runner.wait_idle, thread_sensitive=False)(WAIT)
    assert loops == [asyncio.get_running_loop()]


@pytest.mark.django_db(transaction=True)  # real commits: the turn is announced once the move commits
def test_a_persons_move_gets_the_agents_answer_from_the_runner(eager, monkeypatch):
    threads = []

    def recording_play(match_id):
        threads.append(threading.current_thread())
        return play_agent_turns(match_id)

    monkeypatch.setattr(turn_runner, "_runner", None)  # a runner of this test's own, with the real task
    monkeypatch.setattr(tasks, "play_agent_turns", recording_play)
    match = services.create_match(
        "santorini", [SeatController("human"), SeatController("agent", agent_name="random")], seed=4
    )
    state = state_of(match)
    while 0 in state.current_seats():
        match = services.submit_action(match.pk, 0, state.legal_actions(0)[0].id, expected_version=match.version)
        state = state_of(match)
    assert turn_runner.wait_idle(WAIT)
    match.refresh_from_db()
    assert state_of(match).current_seats() == [0]  # the agent has played its turn and handed it back
    assert threads and threading.current_thread() not in threads
    turn_runner.runner().close()
