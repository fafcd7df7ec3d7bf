"""The stalled agent turn watchdog: an agent seat that has not moved within its deadline gets its turn again.

A turn can be lost between ``agent_turn_due`` and the move: a worker killed mid-task (late acknowledgement puts
the message back for a killed pool process, not for a whole worker killed before Redis' visibility timeout), a
broker that was down when the turn was announced, an eager in-process task that crashed. The watchdog does not
know which; it announces the turn again, exactly as a move would. That is safe because an agent turn is
idempotent: its task decides for the version it read and submits with ``expected_version``, so when two tasks
play the same turn the second one is refused, re-reads the match and finds nothing (or the next turn) to play.

Run periodically by Celery beat (``gameplay.tasks``) or by ``manage.py watch_agent_turns``. The match layer
only sends its own signal here; agents_app decides how the turn is played.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import F, Q
from django.utils import timezone

from gameplay.agent_wait import agent_seats_to_move, turn_started
from gameplay.models import Match, Seat
from gameplay.signals import agent_turn_due

logger = logging.getLogger(__name__)

# At most this many candidate matches per sweep, the most recently stalled first: someone may be waiting on those,
# while a match abandoned long ago must not crowd them out (nor make every sweep parse thousands of states).
SWEEP_LIMIT = 200


def stalled_agent_matches(now: datetime | None = None, deadline_s: float | None = None) -> list[Match]:
    """Active matches where an agent seat must act and the turn started more than ``deadline_s`` ago."""
    now = now or timezone.now()
    deadline_s = settings.AGENT_TURN_DEADLINE_SECONDS if deadline_s is None else deadline_s
    cutoff = now - timedelta(seconds=deadline_s)
    candidates = (
        Match.objects.filter(
            status=Match.Status.ACTIVE, wait_for_players=False, seats__controller=Seat.Controller.AGENT
        )
        .filter(Q(turn_started_at__lt=cutoff) | Q(turn_started_at__isnull=True, updated_at__lt=cutoff))
        .distinct()
        .order_by(F("turn_started_at").desc(nulls_last=True), "-pk")
    )
    # The database narrows to old turns of matches with an agent; whose turn it is, only the engine knows.
    return [m for m in candidates[:SWEEP_LIMIT] if agent_seats_to_move(m)]


def requeue_stalled_agent_turns(now: datetime | None = None, deadline_s: float | None = None) -> int:
    """Announce ``agent_turn_due`` again for every stalled match; returns how many were announced.

    One announcement per match version per deadline: the cache remembers the last one (Redis, shared by every
    process, when REDIS_URL is set), so a sweep every few seconds does not pile up tasks behind a turn that is
    merely slow. (With a per-process cache, several processes sweeping may each announce once; a duplicate
    turn is harmless, see the module docstring.)
    """
    deadline_s = settings.AGENT_TURN_DEADLINE_SECONDS if deadline_s is None else deadline_s
    now = now or timezone.now()
    announced = 0
    for match in stalled_agent_matches(now, deadline_s):
        key = f"agent-turn-requeued:{match.pk}:{match.version}"
        if not cache.add(key, True, timeout=max(1, int(deadline_s))):
            continue
        waited = (now - turn_started(match)).total_seconds()
        logger.warning(
            "agent turn of match %s (version %s) stalled for %.0f s: queued again", match.pk, match.version, waited
        )
        for receiver, result in agent_turn_due.send_robust(sender=Match, match_id=match.pk):
            if isinstance(result, Exception):
                logger.error("agent_turn_due receiver %r failed for match %s", receiver, match.pk, exc_info=result)
        announced += 1
    if announced:
        logger.warning("stalled agent turns queued again: %d", announced)
    return announced
