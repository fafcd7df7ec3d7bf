"""Tournaments, played (eager Celery): every entry plays as scheduled and the tournament finishes; a finished
tournament plays nothing again; resuming plays only the missing entries, continues an interrupted match instead of
replaying it and records one finished before an interruption; a duplicate delivery plays nothing twice; and stale
queued or running entries are queued again, recent ones only on request, a running one whose match still moves not
at all."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from agents_app import turns
from agents_app.models import Tournament, TournamentMatch
from agents_app.tournaments import selectors, services, tasks
from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services as match_services
from tests.agents_app.tournaments_support import (  # noqa: F401 (tournament_agents is an autouse fixture)
    Status,
    match_ids,
    run,
    tournament_agents,
)

pytestmark = pytest.mark.django_db


def test_all_entries_play_as_scheduled_and_the_tournament_finishes():
    tournament = run(matches=2, seed=5)
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at is not None
    for entry in tournament.entries.select_related("match"):
        assert entry.status == Status.FINISHED and entry.error == ""
        match = entry.match
        assert match.status == Match.Status.FINISHED and match.seed == entry.seed
        assert list(match.seats.order_by("index").values_list("agent_name", flat=True)) == entry.seat_agents
        assert entry.played_by.endswith(f":{os.getpid()}")  # eager: this process played it
    results = selectors.results(tournament)
    assert sum(r.matches for r in results.agents) == 4  # two matches, two seats each
    assert sum(r.wins for r in results.agents) == sum(r.losses for r in results.agents) == 2


def test_a_finished_tournament_plays_nothing_again():
    tournament = run()
    before = match_ids(tournament)
    matches = Match.objects.count()
    assert tasks.schedule(tournament) == 0
    assert match_ids(tournament) == before and Match.objects.count() == matches


def test_resume_plays_only_the_missing_entries():
    tournament = run(agents=("random", "random-b", "random-c"), matches=2, seed=3)
    before = match_ids(tournament)
    lost = tournament.entries.get(index=4)
    Match.objects.filter(pk=lost.match_id).delete()  # SET_NULL leaves the entry without its match
    TournamentMatch.objects.filter(pk=lost.pk).update(status=Status.PENDING)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING, finished_at=None)

    assert tasks.schedule(tournament) == 1
    after = match_ids(tournament)
    assert {i: m for i, m in after.items() if i != 4} == {i: m for i, m in before.items() if i != 4}
    assert after[4] is not None and after[4] != before[4]
    assert Match.objects.get(pk=after[4]).seed == lost.seed
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_an_interrupted_match_is_continued_not_replayed(monkeypatch):
    real = turns.play_pending_turns
    interrupted = []

    def dies_once_mid_match(match_id):
        if not interrupted:
            interrupted.append(match_id)
            match = Match.objects.get(pk=match_id)
            seat = 0
            action = state_of(match).legal_actions(seat)[0].id
            match_services.submit_action(match_id, seat, action, expected_version=0, schedule_agents=False)
            raise ConnectionError("worker lost")
        return real(match_id)

    monkeypatch.setattr(turns, "play_pending_turns", dies_once_mid_match)
    tournament = run(matches=2)
    first = tournament.entries.get(index=0)
    assert first.status == Status.FAILED and first.error == "ConnectionError: worker lost"
    assert first.match_id == interrupted[0] and first.match.version == 1
    assert tournament.entries.get(index=1).status == Status.FINISHED
    assert tournament.status == Tournament.Status.RUNNING
    before, matches = match_ids(tournament), Match.objects.count()

    assert tasks.schedule(tournament) == 1
    first.refresh_from_db()
    assert first.status == Status.FINISHED and first.error == ""
    assert match_ids(tournament) == before and Match.objects.count() == matches  # same match, continued
    assert first.match.status == Match.Status.FINISHED and first.match.events.first().kind == "start"


def test_duplicate_delivery_plays_nothing_twice():
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 1, 9)
    entry = tournament.entries.get()
    assert services.play_entry(entry.pk) == Status.FINISHED
    entry.refresh_from_db()
    match_id, version = entry.match_id, entry.match.version
    assert services.play_entry(entry.pk) == Status.FINISHED
    entry.refresh_from_db()
    assert entry.match_id == match_id and entry.match.version == version and Match.objects.count() == 1


def test_a_match_finished_before_an_interruption_is_recorded_not_replayed():
    tournament = run(matches=1)
    entry = tournament.entries.get()
    TournamentMatch.objects.filter(pk=entry.pk).update(status=Status.RUNNING)
    assert services.play_entry(entry.pk) == Status.FINISHED
    entry.refresh_from_db()
    assert entry.status == Status.FINISHED and Match.objects.count() == 1


def test_stale_queued_or_running_entries_are_queued_again_recent_ones_only_on_request(monkeypatch):
    sent = []
    monkeypatch.setattr("agents_app.tournaments.tasks.play_tournament_match.delay", sent.append)
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 3, 1)
    old = timezone.now() - services.STALE_AFTER - timedelta(minutes=1)
    e0, e1, e2 = tournament.entries.order_by("index")
    TournamentMatch.objects.filter(pk=e0.pk).update(status=Status.QUEUED, updated_at=old)
    TournamentMatch.objects.filter(pk=e1.pk).update(status=Status.RUNNING, updated_at=timezone.now())
    TournamentMatch.objects.filter(pk=e2.pk).update(status=Status.FINISHED)

    assert tasks.schedule(tournament) == 1 and sent == [e0.pk]
    assert tasks.schedule(tournament, requeue_active=True) == 2 and sent[1:] == [e0.pk, e1.pk]
    assert set(tournament.entries.values_list("status", flat=True)) == {Status.QUEUED, Status.FINISHED}


def test_a_running_entry_whose_match_still_moves_is_not_stale(monkeypatch):
    sent = []
    monkeypatch.setattr("agents_app.tournaments.tasks.play_tournament_match.delay", sent.append)
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 1, 1)
    entry = tournament.entries.get()
    match = match_services.create_match(
        "santorini",
        [match_services.SeatController("agent", agent_name=a) for a in entry.seat_agents],
        seed=entry.seed,
        host_seat=None,
        schedule_agents=False,
    )
    old = timezone.now() - services.STALE_AFTER - timedelta(minutes=1)
    TournamentMatch.objects.filter(pk=entry.pk).update(status=Status.RUNNING, match=match, updated_at=old)
    assert tasks.schedule(tournament) == 0  # the match row was saved just now: its worker is alive
    Match.objects.filter(pk=match.pk).update(updated_at=old)
    assert tasks.schedule(tournament) == 1 and sent == [entry.pk]
