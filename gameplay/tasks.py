"""Celery tasks of the match layer (found by Celery's autodiscovery; scheduled by CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task

from gameplay.watchdog import requeue_stalled_agent_turns


@shared_task(name="gameplay.requeue_stalled_agent_turns")
def requeue_stalled_agent_turns_task() -> int:
    """One watchdog sweep (see gameplay.watchdog); returns how many stalled agent turns were queued again."""
    return requeue_stalled_agent_turns()
