"""Agent turns off the announcing thread when Celery is eager (the embedded default: no broker, no worker).

Eager Celery runs a task inside ``.delay()``, i.e. on whichever thread announced the turn: after a person's move,
a websocket consumer's. Every synchronous consumer and ``sync_to_async`` call of a daphne process shares one such
thread, so a 25 s model call froze every other match served by that process (issue 14). Here the turn goes to a
small pool of threads of the same process instead, with what the task promises on a worker: it runs later, it is
idempotent (decisions are submitted with the version they were made for), its failures are logged, and the
stalled-turn watchdog (gameplay/writes/watchdog.py) announces a lost turn again.

A match has at most one job at a time. An announcement while its job waits to start is already covered (the job
reads the match when it starts); one while it runs makes it play once more afterwards, because the running job
may have read the match before that move and be on its way out.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)


class TurnRunner:
    """A bounded pool of threads playing agent turns, one job per match at a time."""

    def __init__(self, play: Callable[[int], object], threads: int):
        self._play = play
        self._threads = max(1, threads)
        self._executor: ThreadPoolExecutor | None = None
        self._state = threading.Condition()
        self._waiting: set[int] = set()  # queued, not started: will read the match when they start
        self._running: set[int] = set()
        self._again: set[int] = set()  # announced while running: play once more before letting go

    def submit(self, match_id: int) -> None:
        """Have the match's pending agent turns played on a pool thread; returns at once."""
        loop = _serving_event_loop()
        with self._state:
            if match_id in self._waiting:
                return
            if match_id in self._running:
                self._again.add(match_id)
                return
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self._threads, thread_name_prefix="agent-turn")
            # Raises only while the interpreter shuts down; then the match is not marked as having a job.
            self._executor.submit(self._job, match_id, loop)
            self._waiting.add(match_id)

    def busy(self) -> bool:
        with self._state:
            return bool(self._waiting or self._running)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is queued or running (tests, shutdown); False if that took longer than timeout."""
        with self._state:
            return self._state.wait_for(lambda: not (self._waiting or self._running), timeout)

    def close(self) -> None:
        """Let the queued and running jobs finish, then stop the threads (a later submit starts new ones)."""
        with self._state:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

    def _job(self, match_id: int, loop: asyncio.AbstractEventLoop | None) -> None:
        with self._state:
            self._waiting.discard(match_id)
            self._running.add(match_id)
        try:
            with _notifying_through(loop):
                again = True
                while again:
                    self._play_once(match_id)
                    with self._state:
                        again = match_id in self._again
                        self._again.discard(match_id)
        finally:
            with self._state:
                self._running.discard(match_id)
                self._state.notify_all()

    def _play_once(self, match_id: int) -> None:
        try:
            self._play(match_id)
        except Exception:
            # As a failed task on a worker: logged; the watchdog announces the turn again if it is still due.
            logger.exception("agent turn of match %s failed", match_id)
        finally:
            # A pool thread lives on between jobs: give its connections back instead of holding them idle.
            connections.close_all()


def _serving_event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the ASGI server the calling thread works for, if any.

    A consumer's or view's synchronous code runs in a ``sync_to_async`` thread, which asgiref marks with the loop
    that called it; its ``async_to_sync`` calls (the match service's channel-layer notifications) go to that loop.
    """
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


@contextmanager
def _notifying_through(loop: asyncio.AbstractEventLoop | None) -> Iterator[None]:
    """Run the block as if called by ``sync_to_async`` from ``loop``: its ``async_to_sync`` calls go to that loop.

    The in-memory channel layer (the embedded default) keeps asyncio queues that the sockets of that loop wait on;
    a notification sent from a private loop on a pool thread would wake them late, or not at all. asgiref falls
    back to a private loop by itself when this loop has closed meanwhile; a loop that has stopped without closing
    (a server shutting down) would never run the call, so then nobody is listening and a private loop does.
    """
    if loop is None or not loop.is_running():
        yield
        return
    local = SyncToAsync.threadlocal
    local.main_event_loop, local.main_event_loop_pid = loop, os.getpid()
    try:
        yield
    finally:
        del local.main_event_loop, local.main_event_loop_pid


_runner: TurnRunner | None = None
_runner_lock = threading.Lock()


def runner() -> TurnRunner:
    """The process's runner, created on first use with ``settings.AGENT_TURN_THREADS`` threads."""
    global _runner
    with _runner_lock:
        if _runner is None:
            _runner = TurnRunner(_play_agent_turns, settings.AGENT_TURN_THREADS)
        return _runner


_chat_runner: TurnRunner | None = None


def chat_runner() -> TurnRunner:
    """The process's runner of chat answers between moves (its own pool: a chat answer never delays a move)."""
    global _chat_runner
    with _runner_lock:
        if _chat_runner is None:
            _chat_runner = TurnRunner(_answer_chat, settings.AGENT_TURN_THREADS)
        return _chat_runner


_judge_runner: TurnRunner | None = None


def judge_runner() -> TurnRunner:
    """The process's runner of judged games' verdicts (its own pool, like chat answers)."""
    global _judge_runner
    with _runner_lock:
        if _judge_runner is None:
            _judge_runner = TurnRunner(_judge_match, settings.AGENT_TURN_THREADS)
        return _judge_runner


def _play_agent_turns(match_id: int) -> int:
    from agents_app import tasks  # late: the task module imports models, and this module is imported early

    return tasks.play_agent_turns(match_id)


def _answer_chat(match_id: int) -> int:
    from agents_app import tasks

    return tasks.answer_chat(match_id)


def _judge_match(match_id: int):
    from agents_app import tasks

    return tasks.judge_match(match_id)


def wait_idle(timeout: float) -> bool:
    """Wait until the process's runners have nothing queued or running; True at once for one that never ran."""
    deadline = time.monotonic() + timeout
    return all(
        pool is None or pool.wait_idle(max(0.0, deadline - time.monotonic()))
        for pool in (_runner, _chat_runner, _judge_runner)
    )
