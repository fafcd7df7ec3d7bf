"""Leaderboard selectors, the cached rating runs, and the refresh queued when a match finishes."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from agents_app.tasks import play_agent_turns
from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.reads.selectors import state_of
from gameplay.signals import match_finished
from gameplay.writes import services as match_services
from rating_app import ratings, selectors, services, tasks
from rating_app.models import RatingRun
from rating_app.ratings import LIBRARY_VERSION, MatchResult, RatingConfig
from tests.rating_app.factories import finished, small_league

pytestmark = pytest.mark.django_db

SMALL = RatingConfig(bootstrap=50, seed=0)
PLATFORM = RatingRun.Source.PLATFORM
RANDOM = match_services.SeatController("agent", agent_name="random")
HUMAN = match_services.SeatController("human")


@pytest.fixture
def small_bootstrap(settings):
    settings.RATING_BOOTSTRAP = 50


# --- selectors -------------------------------------------------------------------


def test_platform_results_map_seats_to_agent_ids_with_people_as_human():
    m = finished(["human", "random"], [1.0, 0.0])
    finished(["random", "human"], [0.25, 0.75], game="hex")

    results, fingerprint = selectors.platform_results()

    assert results == [
        MatchResult("santorini", ("human", "random"), (1.0, 0.0)),
        MatchResult("hex", ("random", "human"), (0.25, 0.75)),
    ]
    assert len(fingerprint) == 64
    assert Match.objects.get(pk=m.pk).seats.get(index=0).agent_name == ""  # "human" comes from the controller


def test_only_finished_matches_are_rated():
    finished(["human", "random"], [1.0, 0.0])
    active = finished(["human", "random"], [0.5, 0.5])
    Match.objects.filter(pk=active.pk).update(status=Match.Status.ACTIVE, finished_at=None)
    aborted = finished(["human", "random"], [0.5, 0.5])
    Match.objects.filter(pk=aborted.pk).update(status=Match.Status.ABORTED)

    results, _ = selectors.platform_results()

    assert len(results) == 1


def test_game_agent_and_date_filters():
    now = timezone.now()
    old = now - dt.timedelta(days=10)
    finished(["human", "random"], [1.0, 0.0], at=old)
    finished(["greedy", "random"], [1.0, 0.0], at=now)
    finished(["human", "greedy"], [1.0, 0.0], game="hex", at=now)

    def games_and_agents(**filters):
        return sorted((r.game, r.agents) for r in selectors.platform_results(**filters)[0])

    assert games_and_agents(games=["hex"]) == [("hex", ("human", "greedy"))]
    # Agents: only matches between the chosen agents (every seat one of them).
    assert games_and_agents(agents=["random", "greedy"]) == [("santorini", ("greedy", "random"))]
    assert games_and_agents(agents=["human", "random", "greedy"]) == games_and_agents()
    assert len(games_and_agents(since=(now - dt.timedelta(days=1)).date())) == 2
    assert games_and_agents(until=(now - dt.timedelta(days=5)).date().isoformat()) == [
        ("santorini", ("human", "random"))
    ]
    assert games_and_agents(since=old.date(), until=old.date()) == [("santorini", ("human", "random"))]


def test_fingerprint_changes_with_the_match_set_only():
    finished(["human", "random"], [1.0, 0.0])
    _, first = selectors.platform_results()
    assert selectors.platform_results()[1] == first
    finished(["human", "random"], [0.0, 1.0])
    assert selectors.platform_results()[1] != first
    # A filter that leaves the same matches gives the same fingerprint.
    assert selectors.platform_results(games=["santorini"])[1] == selectors.platform_results()[1]


def test_gamebench_results_are_the_published_records():
    results, fingerprint = selectors.gamebench_results()
    assert len(results) == 277
    assert {a for r in results for a in r.agents} == {
        "gpt-3", "gpt-3-cot", "gpt-4", "gpt-4-cot", "gpt-4-rap", "human", "random",
    }
    assert len(fingerprint) == 64


def test_game_names_come_from_the_game_ids():
    assert selectors.game_name("santorini") == "Santorini"
    assert selectors.game_name("two_rooms_and_a_boom") == "Two Rooms and a Boom"
    assert selectors.game_name("some_new_game") == "Some new game"


# --- leaderboard runs ------------------------------------------------------------------


def test_leaderboard_stores_a_run_with_provenance():
    small_league()
    run = services.leaderboard(PLATFORM, {}, SMALL)

    assert run.pk is not None and run.ok and run.error == ""
    assert run.n_matches == 9
    assert (run.bootstrap, run.seed, run.ties, run.alpha) == (50, 0, "skip", SMALL.alpha)
    assert run.library_version == LIBRARY_VERSION
    assert run.match_fingerprint == selectors.platform_results()[1]
    assert run.filters == {"games": [], "agents": [], "since": None, "until": None}
    assert set(run.result["scopes"]) == {"overall", "santorini", "hex"}
    assert set(run.result["scopes"]["overall"]["agents"]) == {"human", "random", "greedy"}


def test_cached_run_is_reused_until_a_match_finishes():
    small_league()
    first = services.leaderboard(PLATFORM, {}, SMALL)
    assert services.leaderboard(PLATFORM, {}, SMALL).pk == first.pk
    assert services.refresh(PLATFORM, {}, SMALL) == (first, False)

    finished(["human", "greedy"], [1.0, 0.0])
    second = services.leaderboard(PLATFORM, {}, SMALL)

    assert second.pk != first.pk
    assert second.n_matches == first.n_matches + 1
    assert services.leaderboard(PLATFORM, {}, SMALL).pk == second.pk
    assert RatingRun.objects.count() == 2


def test_other_configuration_or_filters_get_their_own_run():
    small_league()
    base = services.leaderboard(PLATFORM, {}, SMALL)
    half = services.leaderboard(PLATFORM, {}, RatingConfig(bootstrap=50, seed=0, ties="half"))
    hex_only = services.leaderboard(PLATFORM, {"games": ["hex"]}, SMALL)

    assert len({base.pk, half.pk, hex_only.pk}) == 3
    assert hex_only.n_matches == 2 and hex_only.filters["games"] == ["hex"]
    assert services.leaderboard(PLATFORM, {"games": ["hex"]}, SMALL).pk == hex_only.pk


def test_a_new_library_version_recomputes(monkeypatch):
    small_league()
    first = services.leaderboard(PLATFORM, {}, SMALL)
    monkeypatch.setattr(ratings, "LIBRARY_VERSION", "9.9.9")

    second = services.leaderboard(PLATFORM, {}, SMALL)

    assert second.pk != first.pk and second.library_version == "9.9.9"


def test_no_finished_matches_gives_an_empty_run_not_an_error():
    run = services.leaderboard(PLATFORM, {}, SMALL)
    assert not run.ok
    assert run.result is None
    assert "no finished matches" in run.error
    filtered = services.leaderboard(PLATFORM, {"games": ["hex"]}, SMALL)
    assert "these filters" in filtered.error


def test_gamebench_run_ignores_platform_filters_and_is_cached():
    run = services.leaderboard(RatingRun.Source.GAMEBENCH, {"games": ["hex"]}, SMALL)
    assert run.ok and run.n_matches == 277 and run.filters == {}
    assert services.leaderboard(RatingRun.Source.GAMEBENCH, {}, SMALL).pk == run.pk


def test_unknown_source_is_refused():
    with pytest.raises(ValueError):
        services.leaderboard("elsewhere", {}, SMALL)


def test_refresh_task_recomputes_only_when_something_changed(small_bootstrap):
    small_league()
    assert tasks.refresh_leaderboard() is True
    assert tasks.refresh_leaderboard() is False
    finished(["human", "random"], [1.0, 0.0])
    assert tasks.refresh_leaderboard() is True
    assert RatingRun.objects.count() == 2
    assert RatingRun.objects.first().bootstrap == 50


# --- match_finished signal and the queued refresh ------------------------------------------


@pytest.fixture
def queued(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.refresh_leaderboard, "apply_async", lambda *a, **kw: calls.append((a, kw)))
    return calls


@pytest.fixture
def worker_celery(settings, monkeypatch):
    """Settings as with a real broker and worker: tasks are queued, not run in-process."""
    # Patch Celery's conf first: it reads Django settings lazily on first access, and must not cache
    # the overridden value below as its own (that would leak "not eager" into later tests).
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.RATING_REFRESH_DELAY = 7


def play_agent_match() -> Match:
    match = match_services.create_match("santorini", [RANDOM, RANDOM], seed=3, host_seat=None, schedule_agents=False)
    play_agent_turns(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_match_finished_is_sent_once_after_the_commit(django_capture_on_commit_callbacks):
    sent = []

    def receiver(sender, **kwargs):
        sent.append(kwargs)

    match_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            match = play_agent_match()
        assert sent == []  # nothing before the commit
        for callback in callbacks:
            callback()
    finally:
        match_finished.disconnect(receiver)
    assert [(k["match_id"], k["game_id"]) for k in sent] == [(match.pk, "santorini")]


def test_finishing_a_match_queues_a_delayed_refresh_when_celery_has_workers(
    worker_celery, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        play_agent_match()
    assert queued == [((), {"countdown": 7})]


def test_finishing_a_match_queues_nothing_when_celery_is_eager(settings, queued, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    with django_capture_on_commit_callbacks(execute=True):
        play_agent_match()
    assert queued == []
    assert RatingRun.objects.count() == 0  # nothing computed either: the page does it on demand


def test_moves_that_do_not_finish_a_match_send_nothing(worker_celery, queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_services.create_match("santorini", [HUMAN, HUMAN], seed=1, host_seat=None)
        state = state_of(match)
        seat = state.current_seats()[0]
        match_services.submit_action(match.pk, seat, state.legal_actions(seat)[0].id, expected_version=0)
    assert queued == []


def test_a_failing_receiver_does_not_fail_the_move(worker_celery, monkeypatch, django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.refresh_leaderboard, "apply_async", broken)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_agent_match()
    assert match.status == Match.Status.FINISHED
