"""The stalled agent turn watchdog: an agent seat that has not moved within its deadline gets its turn again.

A turn can be lost between ``agent_turn_due`` and the move: a worker killed mid-task (late acknowledgement puts
the message back for a killed pool process, not for a whole worker killed before Redis' visibility timeout), a
broker that was down when the turn was announced, an eager in-process task that crashed. The watchdog does not
know which; it announces the turn again, exactly as a move would. That is safe because an agent turn is
idempotent: its task decides for the version it read and submits with ``expected_version``, so when two tasks
play the same turn the second one is refused, re-reads the match and finds nothing (or the next turn) to play.

Run periodically by Celery beat (``gameplay.tasks``) or by ``manage.py watch_agent_turns``. The match layer
only sends its own signal here; agents_app decides how the turn is played.

The same sweep applies turn timers (``GameSpec.turn_timer``, ``apply_overdue_timeouts``): a person's seat whose time
for its current decision has run out gets its timeout action (``timeouts.apply_timeouts``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import F, Q
from django.utils import timezone

from gameplay.engines.registry import all_specs
from gameplay.models import Match, Seat
from gameplay.reads.selectors import state_of
from gameplay.signals import agent_turn_due, verdict_awaited
from gameplay.writes.agent_wait import agent_seats_to_move, turn_started
from gameplay.writes.timeouts import apply_timeouts
from gameplay.writes.turn_timer import overdue_seats

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


def judged_game_ids() -> list[str]:
    """The games whose outcome a judge decides (``spec.dialogue.judged``), read from their declarations."""
    return [spec.id for spec in all_specs() if spec.dialogue is not None and spec.dialogue.judged]


def matches_awaiting_verdict(now: datetime | None = None, deadline_s: float | None = None) -> list[Match]:
    """Active matches of judged games whose last message is older than ``deadline_s`` and that still await a
    verdict: the judge task was lost (a worker killed, a broker down when the last message was announced)."""
    now = now or timezone.now()
    deadline_s = settings.AGENT_TURN_DEADLINE_SECONDS if deadline_s is None else deadline_s
    cutoff = now - timedelta(seconds=deadline_s)
    candidates = (
        Match.objects.filter(status=Match.Status.ACTIVE, game_id__in=judged_game_ids(), turn_started_at__lt=cutoff)
        .order_by("-turn_started_at", "-pk")
    )
    return [m for m in candidates[:SWEEP_LIMIT] if state_of(m).awaiting_verdict()]


def requeue_awaited_verdicts(now: datetime | None = None, deadline_s: float | None = None) -> int:
    """Announce ``verdict_awaited`` again for every match left waiting for its judge (so no match hangs); once per
    match version per deadline, as for agent turns. Two judge tasks racing are harmless: the verdict is applied with
    the version it was asked for, so the second is refused."""
    deadline_s = settings.AGENT_TURN_DEADLINE_SECONDS if deadline_s is None else deadline_s
    announced = 0
    for match in matches_awaiting_verdict(now, deadline_s):
        if not cache.add(f"verdict-requeued:{match.pk}:{match.version}", True, timeout=max(1, int(deadline_s))):
            continue
        logger.warning("match %s (version %s) still awaits its verdict: judge queued again", match.pk, match.version)
        for receiver, result in verdict_awaited.send_robust(sender=Match, match_id=match.pk):
            if isinstance(result, Exception):
                logger.error("verdict_awaited receiver %r failed for match %s", receiver, match.pk, exc_info=result)
        announced += 1
    return announced


def timer_game_ids() -> list[str]:
    """The games that time their seats' decisions (``spec.turn_timer``), read from their declarations."""
    return [spec.id for spec in all_specs() if spec.turn_timer]


def matches_with_overdue_turns(now: datetime | None = None) -> list[Match]:
    """Active matches of games with a turn timer where a person's seat has run out of time (the most recent turns
    first, at most SWEEP_LIMIT looked at). The database narrows to turns older than a second (the shortest limit);
    whose time is up, only the engine's limits say."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=1)
    candidates = (
        Match.objects.filter(
            status=Match.Status.ACTIVE, wait_for_players=False, game_id__in=timer_game_ids(),
            seats__controller=Seat.Controller.HUMAN,
        )
        .filter(Q(turn_started_at__lt=cutoff) | Q(turn_started_at__isnull=True, updated_at__lt=cutoff))
        .distinct()
        .order_by(F("turn_started_at").desc(nulls_last=True), "-pk")
    )
    return [m for m in candidates[:SWEEP_LIMIT] if overdue_seats(m, state_of(m), m.seats.all(), now)]


def apply_overdue_timeouts(now: datetime | None = None) -> int:
    """Apply the timeout action of every person's seat that has run out of time (``timeouts.apply_timeouts``, which
    checks the time again under the match's lock); returns how many were applied. Safe to run from several processes
    at once: a timeout is applied at the version it was found at, so a second sweep's is refused."""
    applied = 0
    for match in matches_with_overdue_turns(now):
        try:
            applied += len(apply_timeouts(match.pk))
        except Exception:
            logger.exception("applying the timeouts of match %s failed", match.pk)
    if applied:
        logger.info("turn timers ran out: %d timeout actions applied", applied)
    return applied
