"""Celery tasks of tournaments, and the scheduling that queues them (imported by agents_app.tasks so Celery's
autodiscovery registers them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from celery import shared_task

from agents_app.models import Tournament, TournamentMatch
from agents_app.tournaments import services


@shared_task(name="agents_app.play_tournament_match")
def play_tournament_match(entry_id: int) -> str:
    """Play one tournament entry in this worker; returns its final status (failures are recorded, not raised)."""
    return services.play_entry(entry_id)


def schedule(
    tournament: Tournament,
    *,
    requeue_active: bool = False,
    after_each: Callable[[TournamentMatch], None] | None = None,
    stale_after: timedelta = services.STALE_AFTER,
    lost_only: bool = False,
) -> int:
    """Queue every entry that still has to be played (``services.mark_for_scheduling``); returns how many were
    queued. With eager Celery each task runs inside ``delay()``; ``after_each`` is called after each one (a progress
    bar uses it)."""
    ids = services.mark_for_scheduling(
        tournament, requeue_active=requeue_active, stale_after=stale_after, lost_only=lost_only
    )
    for entry_id in ids:
        play_tournament_match.delay(entry_id)
        if after_each is not None:
            after_each(TournamentMatch.objects.get(pk=entry_id))
    return len(ids)
