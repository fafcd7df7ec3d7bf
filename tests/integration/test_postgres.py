"""The match service on PostgreSQL: a full match, and row locking under concurrent submissions.

Runs only when DATABASE_URL names PostgreSQL (skipped otherwise, except in CI where it fails).
"""

from __future__ import annotations

import os
import random
import threading

import pytest
from django.db import connection

from gameplay.models import Event, Match, Seat
from gameplay.project.celery import app as celery_app
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import ActionRejected, SeatController
from tests.support.services import missing

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")


def _require_postgres() -> None:
    if os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return
    missing("DATABASE_URL does not name PostgreSQL (set DATABASE_URL=postgres://... to run these tests)")


@pytest.fixture(autouse=True)
def postgres_only():
    _require_postgres()


@pytest.fixture(autouse=True)
def in_process(settings):
    """Agent turns in-process and an in-memory channel layer: this module tests the database only."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_connection_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


def test_full_match_human_vs_random():
    match = services.create_match("santorini", [HUMAN, RANDOM], seed=2024)
    rng = random.Random(1)
    human_actions = 0
    while match.status == Match.Status.ACTIVE:
        state = state_of(match)
        assert state.current_seats() == [0], "the random agent should have played its turns already"
        action = rng.choice(state.legal_actions(0))
        match = services.submit_action(match.pk, 0, action.id, expected_version=match.version)
        match.refresh_from_db()
        human_actions += 1
        assert human_actions < 300

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    assert match.winner in (0, 1)
    assert sorted(match.scores) == [0.0, 1.0]
    events = list(match.events.order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].kind == Event.Kind.START and events[-1].kind == Event.Kind.END
    actions = [e for e in events if e.kind == Event.Kind.ACTION]
    assert len(actions) == match.version == len(match.state["log"])
    assert [e.version for e in actions] == list(range(1, match.version + 1))
    assert sum(e.seat == 0 for e in actions) == human_actions
    assert all(e.payload.get("agent") == "random" for e in actions if e.seat == 1)
    assert Seat.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("same_action", [True, False], ids=["same-action", "different-actions"])
def test_concurrent_submissions_with_same_version(same_action):
    """Two threads submit for the same seat at the same expected version: the row lock lets one in."""
    for round_ in range(5):
        match = services.create_match("santorini", [HUMAN, HUMAN], seed=round_)
        events_before = Event.objects.filter(match=match).count()
        action_ids = ["place:c3", "place:c3"] if same_action else ["place:b2", "place:d4"]
        barrier = threading.Barrier(2)
        results: list[object] = [None, None]

        def submit(i: int, barrier=barrier, results=results, match=match, action_ids=action_ids) -> None:
            try:
                barrier.wait(timeout=10)
                results[i] = services.submit_action(match.pk, 0, action_ids[i], expected_version=0)
            except Exception as err:
                results[i] = err
            finally:
                connection.close()  # each thread has its own connection; don't leave it open

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert not any(t.is_alive() for t in threads)

        won = [r for r in results if isinstance(r, Match)]
        lost = [r for r in results if isinstance(r, Exception)]
        assert len(won) == 1 and len(lost) == 1, results
        assert isinstance(lost[0], ActionRejected), repr(lost[0])
        assert "out of date" in str(lost[0])

        match.refresh_from_db()
        winner = results.index(won[0])
        assert match.version == 1
        assert Event.objects.filter(match=match).count() == events_before + 1
        assert Event.objects.filter(match=match, kind=Event.Kind.ACTION).count() == 1
        assert match.state["payload"]["workers"] == [[action_ids[winner].split(":")[1]], []]
        assert match.state["log"] == [[0, action_ids[winner], None]]
