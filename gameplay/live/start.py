"""Starting a live match's clock (``LiveBout``) once, wherever its sockets are.

A person's socket (gameplay.web.consumers) calls ``claim`` when it opens and with each input; the first call for a
match that should run live and has no runner takes the lease, and the socket ``launch``es the clock: as a task on
its own event loop when Celery runs eagerly (the embedded default), else as a Celery task on a worker. Later calls
find the lease and do nothing.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings

from gameplay.capabilities.live import plays_live
from gameplay.models import Match

from . import inputs

logger = logging.getLogger(__name__)


def claim(match: Match) -> tuple[str, str] | None:
    """The match's cache key and the lease on its clock when it should run live and nobody runs it (the caller
    must then ``launch`` it), else None."""
    from gameplay.reads.selectors import game_of  # late: selectors import this module

    key = inputs.match_key(match)
    if inputs.lease_held(key):
        return None
    match = Match.objects.filter(pk=match.pk).first()
    if match is None or match.status != Match.Status.ACTIVE or match.wait_for_players:
        return None
    if not plays_live(game_of(match), match.seats.all()):
        return None
    lease = inputs.take_lease(key)
    return (key, lease) if lease else None


_running: set[asyncio.Task] = set()


async def launch(match_id: int, key: str, lease: str) -> None:
    """Run the clock of a claimed match: as a task on this event loop when Celery runs eagerly (the embedded
    default, whose in-memory channel layer only reaches this process's sockets), else on a Celery worker."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        from .bout import LiveBout

        task = asyncio.get_running_loop().create_task(LiveBout(match_id, key, lease).run())
        _running.add(task)
        task.add_done_callback(_running.discard)
    else:
        from gameplay.tasks import run_live_bout

        await sync_to_async(run_live_bout.delay, thread_sensitive=False)(match_id, key, lease)
    logger.info("live bout of match %s started", match_id)
