"""Celery tasks of the match layer (found by Celery's autodiscovery; scheduled by CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task

from gameplay.writes.watchdog import apply_overdue_timeouts, requeue_awaited_verdicts, requeue_stalled_agent_turns


@shared_task(name="gameplay.requeue_stalled_agent_turns")
def requeue_stalled_agent_turns_task() -> int:
    """One watchdog sweep (see gameplay.writes.watchdog); returns how many stalled agent turns and awaited verdicts were
    queued again plus how many timeout actions of people who ran out of time (turn timers) were applied."""
    return requeue_stalled_agent_turns() + requeue_awaited_verdicts() + apply_overdue_timeouts()


@shared_task(name="gameplay.run_live_bout")
def run_live_bout(match_id: int, key: str, lease: str) -> int:
    """The clock of one live match (gameplay.live.bout), for as long as the bout lasts (2 minutes for Boxing);
    returns the frames it streamed."""
    from asgiref.sync import async_to_sync

    from gameplay.live.bout import LiveBout

    bout = LiveBout(match_id, key, lease)
    async_to_sync(bout.run)()
    return bout.frames_sent
