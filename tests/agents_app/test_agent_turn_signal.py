"""Agent turns arrive by signal: gameplay sends agent_turn_due after the commit, agents_app queues its task.

The task is replaced by a recorder here, so these tests see exactly when (and whether) it is queued.
"""

from __future__ import annotations

import logging

import pytest
from django.db import transaction

from agents_app.receivers import queue_agent_turns
from agents_app.tasks import play_agent_turns
from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.signals import agent_turn_due
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery  # noqa: F401  (a fixture)

RANDOM = SeatController("agent", agent_name="random")
HUMAN = SeatController("human")


class Boom(Exception):
    pass


@pytest.fixture
def queued(monkeypatch):
    """The match ids play_agent_turns was queued for, in order (nothing is played)."""
    ids: list[int] = []
    monkeypatch.setattr(play_agent_turns, "delay", lambda match_id: ids.append(match_id))
    return ids


def test_agents_app_listens_to_the_signal():
    assert queue_agent_turns in [ref() for _, ref, *_ in agent_turn_due.receivers]


@pytest.mark.django_db
def test_the_task_is_queued_only_when_the_transaction_commits(queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match = services.create_match("santorini", [RANDOM, HUMAN], seed=5, host_seat=1)
    assert queued == []  # the match is not committed yet: no worker may look for it
    assert len(callbacks) == 1
    callbacks[0]()  # what Django runs after the commit
    assert queued == [match.pk]


@pytest.mark.django_db
def test_nothing_is_queued_when_the_transaction_rolls_back(queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(Boom), transaction.atomic():
        services.create_match("santorini", [RANDOM, HUMAN], seed=5, host_seat=1)
        raise Boom
    assert callbacks == [] and queued == []
    assert not Match.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_with_real_commits_the_task_waits_for_the_callers_transaction(queued):
    # Outside any transaction (autocommit) the service's own commit is the commit: queued at once.
    first = services.create_match("santorini", [RANDOM, HUMAN], seed=5, host_seat=1)
    assert queued == [first.pk]
    # Inside a caller's transaction (e.g. a study starting a round) it waits for that commit...
    with transaction.atomic():
        second = services.create_match("santorini", [RANDOM, HUMAN], seed=6, host_seat=1)
        assert queued == [first.pk]
    assert queued == [first.pk, second.pk]
    # ...and never comes when that transaction is rolled back.
    with pytest.raises(Boom), transaction.atomic():
        services.create_match("santorini", [RANDOM, HUMAN], seed=7, host_seat=1)
        raise Boom
    assert queued == [first.pk, second.pk]
    assert Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_only_a_turn_of_an_agent_seat_queues_the_task(queued):
    match = services.create_match("santorini", [HUMAN, RANDOM], seed=5, host_seat=0)
    assert queued == []  # the human moves first
    state = state_of(match)
    match = services.submit_action(match.pk, 0, state.legal_actions(0)[0].id, expected_version=0)
    assert state_of(match).current_seats() == [0]  # Santorini: each player places both workers
    assert queued == []
    match = services.submit_action(match.pk, 0, state_of(match).legal_actions(0)[0].id, expected_version=1)
    assert queued == [match.pk]  # now the agent's turn
    humans = services.create_match("santorini", [HUMAN, HUMAN], seed=5, host_seat=0)
    services.submit_action(humans.pk, 0, state_of(humans).legal_actions(0)[0].id, expected_version=0)
    assert queued == [match.pk]


@pytest.mark.django_db(transaction=True)
def test_schedule_agents_false_sends_nothing(queued):
    services.create_match("santorini", [RANDOM, RANDOM], seed=5, host_seat=None, schedule_agents=False)
    assert queued == []


@pytest.mark.django_db(transaction=True)
def test_a_failing_receiver_is_logged_and_the_move_stays(monkeypatch, caplog):
    def broker_down(match_id):
        raise ConnectionError("broker down")

    monkeypatch.setattr(play_agent_turns, "delay", broker_down)
    with caplog.at_level(logging.ERROR, logger="gameplay.writes.services"):
        match = services.create_match("santorini", [RANDOM, HUMAN], seed=5, host_seat=1)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    assert "agent_turn_due receiver" in caplog.text and "broker down" in caplog.text


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_eager_celery_plays_the_agent_right_after_the_commit():
    match = services.create_match("santorini", [RANDOM, HUMAN], seed=5, host_seat=1)
    match.refresh_from_db()
    assert match.version == 2 and state_of(match).current_seats() == [1]  # it placed both its workers
