"""No visitor can queue unbounded leaderboard work or make it wait in front of agent turns (issue 37, point 1).

Each POST of the compute button with a new selection (games, agents, dates: unbounded) used to queue a bootstrap
computation on the queue agent turns use. Now computations run on a queue of their own, at most
RATING_OPEN_REQUESTS wait at once whatever the selections, and one address may ask RATING_REQUESTS_PER_MINUTE times a
minute; refusals are a 429 that changes nothing."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from gameplay.project.celery import app as celery_app
from gameplay.web import rate_limits
from rating_app import services, tasks
from rating_app.models import RefreshRequest

pytestmark = pytest.mark.django_db
ADDRESSES = (f"203.0.113.{n}" for n in itertools.count(1))  # one address per client: limits are per address


@pytest.fixture
def queued(monkeypatch):
    """A real worker's Celery: the computation is queued (recorded), not run here."""
    sent = []
    monkeypatch.setattr(tasks.refresh_leaderboard, "delay", lambda **kwargs: sent.append(kwargs))
    return sent


def visitor() -> Client:
    return Client(REMOTE_ADDR=next(ADDRESSES))


def selection(n: int) -> str:
    return f"/ratings/?source=platform&since=2026-01-{n:02d}"


def test_background_work_has_a_queue_of_its_own(settings):
    route = celery_app.amqp.router.route
    background = set(settings.BACKGROUND_TASKS)
    assert {"rating_app.tasks.refresh_leaderboard", "agents_app.play_tournament_match"} <= background
    for task in settings.BACKGROUND_TASKS:
        assert route({}, task)["queue"].name == "background", task
    for task in ("agents_app.play_agent_turns", "agents_app.answer_chat", "agents_app.judge_match"):
        assert route({}, task)["queue"].name == celery_app.conf.task_default_queue, task


def test_at_most_so_many_computations_wait_whatever_the_selections(settings, queued,
                                                                   django_capture_on_commit_callbacks):
    settings.RATING_OPEN_REQUESTS = 3
    with django_capture_on_commit_callbacks(execute=True):
        answers = [visitor().post(selection(n)).status_code for n in range(1, 7)]
        again = visitor().post(selection(2))  # a selection already waiting: shown as being computed, not refused
    assert answers == [302, 302, 302, 429, 429, 429] and again.status_code == 302
    assert RefreshRequest.objects.count() == 3 and len(queued) == 3
    with pytest.raises(services.RefreshBusy):
        services.request_refresh("platform", {"since": "2026-02-01"})
    RefreshRequest.objects.filter(pk=RefreshRequest.objects.earliest("pk").pk).update(finished_at="2026-11-28T00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        assert visitor().post(selection(9)).status_code == 302  # one finished: room for one more
    assert len(queued) == 4


def test_one_address_may_ask_so_many_times_a_minute(settings, queued, django_capture_on_commit_callbacks, monkeypatch):
    settings.RATING_REQUESTS_PER_MINUTE = 4
    # The limiter counts per clock minute: posts that straddle a minute's end start a new count (CI once saw the
    # sixth allowed). So its clock stands still here, 30 s into a minute.
    monkeypatch.setattr(rate_limits, "_clock", lambda: 60.0 * 29_000_000 + 30)
    client = visitor()
    with django_capture_on_commit_callbacks(execute=True):
        answers = [client.post(selection(n)) for n in range(1, 7)]
        other = visitor().post(selection(7))  # another address is not held up
    assert [a.status_code for a in answers] == [302] * 4 + [429] * 2 and other.status_code == 302
    refused = answers[-1]
    # Retry-After is when this address's minute ends, and the page says the same.
    retry_after = int(refused["Retry-After"])
    assert 1 <= retry_after <= 60 and f"try again in {retry_after} second" in refused.content.decode()
    assert RefreshRequest.objects.count() == 5 and len(queued) == 5


def test_staff_are_not_limited_by_address(settings, queued, django_capture_on_commit_callbacks):
    settings.RATING_REQUESTS_PER_MINUTE = 1
    staff = visitor()
    staff.force_login(get_user_model().objects.create_user("admin", is_staff=True))
    with django_capture_on_commit_callbacks(execute=True):
        assert [staff.post(selection(n)).status_code for n in range(1, 4)] == [302, 302, 302]


def test_the_window_counter_restarts_each_window():
    assert [rate_limits.allow("k", 2, per_seconds=60, now=120.0) for _ in range(3)] == [True, True, False]
    assert rate_limits.allow("k", 2, per_seconds=60, now=180.0)  # the next minute
