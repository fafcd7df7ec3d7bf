"""Signal receivers: keep the leaderboard fresh when matches finish."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings

from rating_app import services

logger = logging.getLogger(__name__)


def celery_is_eager() -> bool:
    return bool(settings.CELERY_TASK_ALWAYS_EAGER or current_app.conf.task_always_eager)


def queue_leaderboard_refresh(sender, match_id: int | None = None, **kwargs) -> None:
    """After a match finishes, queue one refresh of the default platform leaderboard a little later.

    Only with a real worker: eager Celery would compute the leaderboard inside every finishing
    request (``play_match --count 100`` would compute it 100 times). Without a worker nothing is
    queued; the page notices the changed matches and offers a button that queues the computation. Refreshes queued close
    together cost little: the first computes, the others find the stored run current.
    """
    if celery_is_eager():
        return
    from rating_app.tasks import refresh_leaderboard  # here: the tasks load the rating library, used only now

    refresh_leaderboard.apply_async(countdown=settings.RATING_REFRESH_DELAY)


def queue_requested_refresh(sender, request_id: int, **kwargs) -> None:
    """A leaderboard computation was asked for and committed: queue it (eager Celery computes it here)."""
    from rating_app.tasks import refresh_leaderboard

    try:
        refresh_leaderboard.delay(request_id=request_id)
    except Exception as err:  # a broker that is down, or (eager) a computation that failed
        logger.exception("refresh request %s could not be carried out", request_id)
        services.close_failed_request(request_id, f"the computation could not run ({type(err).__name__})")
