"""gameplay.web.socket_threads: the consumers' worker threads run work off the caller's thread, hand back results and
errors, and keep their database connection from one piece of work to the next (issue 14: a new connection per
frame cost more than the frame's queries)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from gameplay.models import Match
from gameplay.web.socket_threads import SocketThreads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pool():
    threads = SocketThreads()
    yield threads
    threads.close_connections()


def test_work_runs_on_a_worker_thread_and_returns_its_result(pool):
    caller = threading.get_ident()
    worker = pool.submit(threading.get_ident).result(timeout=5)
    assert worker != caller
    assert pool.submit(lambda a, b: a + b, 2, b=3).result(timeout=5) == 5


def test_an_error_reaches_the_caller_and_the_thread_goes_on(pool):
    with pytest.raises(ZeroDivisionError):
        pool.submit(lambda: 1 / 0).result(timeout=5)
    assert pool.submit(lambda: "still here").result(timeout=5) == "still here"


def test_a_thread_keeps_its_database_connection_between_pieces_of_work(pool):
    """Meaningful on PostgreSQL (phase 2): Django never closes an in-memory SQLite connection anyway."""
    def query_and_name_connection():
        Match.objects.count()
        return threading.get_ident(), id(connection.connection)

    seen = {}
    for _ in range(12):
        thread, conn = pool.submit(query_and_name_connection).result(timeout=5)
        seen.setdefault(thread, set()).add(conn)
    assert all(len(conns) == 1 for conns in seen.values()), seen  # each thread: one connection throughout


def test_close_connections_returns_once_every_thread_has_closed(pool):
    pool.submit(Match.objects.count).result(timeout=5)
    pool.close_connections(timeout=5)
    assert pool.submit(lambda: Match.objects.count()).result(timeout=5) == 0  # and they connect again
