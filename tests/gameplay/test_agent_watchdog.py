"""The stalled agent turn watchdog (gameplay.writes.watchdog): which matches it re-announces, how often, and its
runners.

A dead agent task is simulated by disconnecting agents_app's receiver of ``agent_turn_due`` (nothing plays the
turn), while a recording receiver sees what the watchdog announces. The real worker kill is
tests/integration/test_agent_turn_recovery.py.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.utils import timezone

from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.signals import agent_turn_due
from gameplay.tasks import requeue_stalled_agent_turns_task
from gameplay.writes import absent_players, services
from gameplay.writes.services import SeatController
from gameplay.writes.watchdog import requeue_stalled_agent_turns, stalled_agent_matches

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
AGENTS_RECEIVER = "agents_app.queue_agent_turns"


@pytest.fixture
def dead_agents():
    """Nothing plays agent turns (as after a killed worker); yields the match ids announced meanwhile."""
    from agents_app.receivers import queue_agent_turns

    announced: list[int] = []

    def record(sender, match_id, **kwargs):
        announced.append(match_id)

    assert agent_turn_due.disconnect(dispatch_uid=AGENTS_RECEIVER)
    agent_turn_due.connect(record, dispatch_uid="test.record_agent_turns", weak=False)
    try:
        yield announced
    finally:
        agent_turn_due.disconnect(dispatch_uid="test.record_agent_turns")
        agent_turn_due.connect(queue_agent_turns, dispatch_uid=AGENTS_RECEIVER)


@pytest.fixture(autouse=True)
def own_cache(settings):
    """A cache of these tests' own: clearing it never touches the Redis cache other tests and processes use."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "wd"}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def deadline(settings):
    settings.AGENT_TURN_DEADLINE_SECONDS = 30
    return 30


def aged(match: Match, seconds: float) -> Match:
    """The current turn started ``seconds`` ago."""
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))
    match.refresh_from_db()
    return match


def agent_to_move(**kwargs) -> Match:
    """Santorini with the random agent in seat 0, which moves first."""
    return services.create_match("santorini", [RANDOM, HUMAN], seed=5, **kwargs)


def test_a_stalled_agent_turn_is_announced_again(dead_agents, deadline):
    match = aged(agent_to_move(), deadline + 1)  # its turn was announced once at creation, and lost

    assert [m.pk for m in stalled_agent_matches()] == [match.pk]
    assert requeue_stalled_agent_turns() == 1
    assert dead_agents == [match.pk]
    assert Match.objects.get(pk=match.pk).version == 0  # the watchdog only announces; it never moves


def test_fresh_turns_human_turns_and_finished_matches_are_left_alone(dead_agents, deadline):
    fresh = agent_to_move()
    aged(fresh, deadline - 5)
    human_to_move = aged(services.create_match("santorini", [HUMAN, RANDOM], seed=5), deadline * 10)
    people_only = aged(services.create_match("santorini", [HUMAN, HUMAN], seed=5), deadline * 10)
    aborted = agent_to_move()
    absent_players.abort_match(aborted.pk, "test")
    aged(aborted, deadline * 10)

    assert stalled_agent_matches() == []
    assert requeue_stalled_agent_turns() == 0
    assert dead_agents == []
    assert Match.objects.filter(pk__in=[fresh.pk, human_to_move.pk, people_only.pk, aborted.pk]).count() == 4


def test_the_most_recently_stalled_matches_come_first(dead_agents, deadline, monkeypatch):
    monkeypatch.setattr("gameplay.writes.watchdog.SWEEP_LIMIT", 1)
    abandoned = aged(agent_to_move(), deadline * 1000)
    recent = aged(agent_to_move(), deadline + 1)
    assert [m.pk for m in stalled_agent_matches()] == [recent.pk]
    assert requeue_stalled_agent_turns() == 1 and dead_agents == [recent.pk]
    assert abandoned.pk != recent.pk


def test_one_announcement_per_deadline_not_per_sweep(dead_agents, deadline):
    match = aged(agent_to_move(), deadline + 1)

    assert requeue_stalled_agent_turns() == 1
    assert requeue_stalled_agent_turns() == 0  # a sweep a few seconds later: the turn may just be slow
    assert dead_agents == [match.pk]
    cache.clear()  # the deadline passed again (the cache entry expires after deadline seconds)
    assert requeue_stalled_agent_turns() == 1
    assert dead_agents == [match.pk, match.pk]


def test_a_new_version_is_a_new_turn_for_the_watchdog(dead_agents, deadline, monkeypatch):
    """The memory is per match version: after a move, a new stall of the same match is announced at once."""
    match = aged(agent_to_move(), deadline + 1)
    assert requeue_stalled_agent_turns() == 1
    Match.objects.filter(pk=match.pk).update(version=7)  # as if the agent had moved and is stuck again
    assert requeue_stalled_agent_turns() == 1


def test_the_watchdog_gets_the_match_moving_with_a_live_agent(deadline):
    """End to end in-process: the turn was lost, the sweep announces it, agents_app plays it (eager Celery)."""
    from agents_app.receivers import queue_agent_turns

    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    agent_turn_due.disconnect(dispatch_uid=AGENTS_RECEIVER)
    try:
        match = agent_to_move()  # its announcement (if this test's transaction ever committed) is lost
    finally:
        agent_turn_due.connect(queue_agent_turns, dispatch_uid=AGENTS_RECEIVER)
    try:
        assert Match.objects.get(pk=match.pk).version == 0
        aged(match, deadline + 1)
        assert requeue_stalled_agent_turns() == 1
        match.refresh_from_db()
        assert match.version >= 1 and match.events.filter(kind="action", seat=0).exists()
        assert requeue_stalled_agent_turns() == 0  # a person's turn now
    finally:
        celery_app.conf.task_always_eager = previous


def test_the_celery_task_and_the_command_run_one_sweep(dead_agents, deadline, capsys):
    match = aged(agent_to_move(), deadline + 1)

    assert requeue_stalled_agent_turns_task.apply().get() == 1
    cache.clear()
    call_command("watch_agent_turns", "--once")
    assert capsys.readouterr().out.strip() == "stalled agent turns queued again: 1"
    assert dead_agents == [match.pk, match.pk]
    with pytest.raises(CommandError, match="--interval"):
        call_command("watch_agent_turns", "--interval", "0")


def test_beat_schedules_the_sweep_and_agent_turns_are_acknowledged_late(settings):
    from agents_app.tasks import play_agent_turns

    entry = settings.CELERY_BEAT_SCHEDULE["requeue-stalled-agent-turns"]
    assert entry["task"] == requeue_stalled_agent_turns_task.name
    assert entry["schedule"] == settings.AGENT_WATCHDOG_INTERVAL_SECONDS
    assert celery_app.conf.task_acks_late and celery_app.conf.task_reject_on_worker_lost
    assert play_agent_turns.acks_late and play_agent_turns.reject_on_worker_lost
