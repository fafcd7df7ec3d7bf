"""Celery tasks of the leaderboard."""

from __future__ import annotations

from celery import shared_task

from rating_app import services
from rating_app.models import RatingRun


@shared_task(name="rating_app.tasks.refresh_leaderboard")
def refresh_leaderboard() -> bool:
    """Bring the default platform leaderboard up to date; True if it had to be recomputed."""
    _, computed = services.refresh(RatingRun.Source.PLATFORM, {}, services.default_config())
    return computed
