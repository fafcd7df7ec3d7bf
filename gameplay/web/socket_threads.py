"""The worker threads that run the match websockets' database and rendering work (gameplay.web.consumers), each
keeping its database connection from one piece of work to the next.

Why not Django's per-request rule (close the connection after each request when CONN_MAX_AGE is 0): a socket's
frames are not requests, and opening a PostgreSQL connection for every frame costs more than the frame's own
queries (a new server process, its catalog caches warmed from scratch). So a thread keeps its connection while it
is busy and closes it after IDLE_CLOSE_SECONDS without work, after KEEP_SECONDS in any case, or at once when it
broke or was left in a transaction. At most ``thread_count()`` connections per server process.

SQLite (the embedded default) takes one writer at a time and makes the others sleep in its busy handler, so there
a single thread queues the work instead.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import Executor, Future

from django.db import connection, connections

logger = logging.getLogger(__name__)

# Per server process, hence at most this many database connections held by sockets. Few on purpose: the work is
# mostly Python (rendering), so more threads only contend for the interpreter lock with the event loop, which then
# delivers late (bench_realtime, 100 matches on 2 cores: 8 threads gave a partner p95 of 2.1 s, 2-3 threads 0.4 s).
# One more than two cores, so a thread waiting on the database or Redis leaves the others working.
THREADS = 3
IDLE_CLOSE_SECONDS = 2.0
KEEP_SECONDS = 300.0


def thread_count() -> int:
    return 1 if connection.vendor == "sqlite" else THREADS


class SocketThreads(Executor):
    """A fixed pool of threads started on first use; see the module docstring for their connections."""

    def __init__(self, name: str = "match-socket"):
        self.name = name
        self._work: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        self._start()
        self._work.put((future, fn, args, kwargs))
        return future

    def _start(self) -> None:
        if self._threads:
            return
        with self._lock:
            if not self._threads:
                for n in range(thread_count()):
                    thread = threading.Thread(target=self._run, name=f"{self.name}-{n}", daemon=True)
                    thread.start()
                    self._threads.append(thread)

    def close_connections(self, timeout: float = 10.0) -> None:
        """Have every thread close its database connections now (e.g. before a test database is dropped)."""
        if not self._threads:
            return
        barrier = threading.Barrier(len(self._threads) + 1, timeout=timeout)
        for _ in self._threads:
            self._work.put(barrier)  # each thread takes one, then waits at the barrier for the others
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            logger.warning("socket threads did not all close their database connections in %s s", timeout)

    def _run(self) -> None:
        opened_at = None
        while True:
            try:
                item = self._work.get(timeout=IDLE_CLOSE_SECONDS)
            except queue.Empty:
                connections.close_all()
                continue
            if isinstance(item, threading.Barrier):
                connections.close_all()
                try:
                    item.wait()
                except threading.BrokenBarrierError:
                    pass
                continue
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            opened_at = _tidy_connections(opened_at)
            try:
                result = fn(*args, **kwargs)
            except BaseException as err:  # handed to the awaiting coroutine, as a ThreadPoolExecutor does
                future.set_exception(err)
            else:
                future.set_result(result)
            opened_at = _tidy_connections(opened_at)


def _tidy_connections(opened_at: float | None) -> float | None:
    """Close this thread's connections that broke, sit in a transaction or are older than KEEP_SECONDS; returns
    when the kept connection was opened (None: none is open)."""
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if (
            conn.in_atomic_block
            or conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]
            or (conn.errors_occurred and not conn.is_usable())
            or (opened_at is not None and now - opened_at > KEEP_SECONDS)
        ):
            conn.close()
        else:
            conn.errors_occurred = False
    if connection.connection is None:
        return None
    return opened_at if opened_at is not None else now


socket_threads = SocketThreads()
# The clocks of live matches (gameplay.live.bout) have threads of their own, alike: a decision point is due every
# few frames, and on the socket threads it waited behind the sockets' drawing and presence beats.
live_bout_threads = SocketThreads("live-bout")
