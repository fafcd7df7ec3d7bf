"""Celery tasks of tournaments (imported by agents_app.tasks so Celery's autodiscovery registers them)."""

from __future__ import annotations

from celery import shared_task

from agents_app import tournament_services


@shared_task(name="agents_app.play_tournament_match")
def play_tournament_match(entry_id: int) -> str:
    """Play one tournament entry in this worker; returns its final status (failures are recorded, not raised)."""
    return tournament_services.play_entry(entry_id)
