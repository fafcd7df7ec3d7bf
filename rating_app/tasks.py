"""Celery tasks of the leaderboard."""

from __future__ import annotations

from celery import shared_task

from rating_app import services
from rating_app.models import RatingRun


@shared_task(name="rating_app.tasks.refresh_leaderboard")
def refresh_leaderboard(request_id: int | None = None) -> bool:
    """Compute a run; True if one had to be computed (False: the stored run was current).

    Without ``request_id`` (queued when a match finishes): the default platform leaderboard. With one (the
    leaderboard's button): the selection that request asks for, closing the request when done.
    """
    if request_id is not None:
        return services.fulfil_request(request_id)
    _, computed = services.refresh(RatingRun.Source.PLATFORM, {}, services.default_config())
    return computed
