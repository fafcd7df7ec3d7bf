"""Writes: when a player is gone, the match goes on or ends without them: an agent takes over a person's seat
(``hand_seat_to_agent``, a study's fallback agent for a participant who left), or the match ends without a result
(``abort_match``, e.g. a study round whose partner left; ``end_match_for_silent_agent``, a person an agent has kept
waiting too long).

Each runs in one transaction under the match's row lock, logs an event and tells the match's sockets; a match that
is already over is returned as it is.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from gameplay.models import Event, Match, Seat
from gameplay.reads.agent_directory import agent_exists, agent_plays, why_refused
from gameplay.writes.agent_wait import agent_wait
from gameplay.writes.announce import notify_match_changed, schedule_agent_turns
from gameplay.writes.match_log import ServiceError, append_event, locked_match

logger = logging.getLogger(__name__)


def abort_match(match_id: int, reason: str) -> Match:
    """End an active match without a result (e.g. a player left a study round); no-op once it is over."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.ACTIVE:
            return match
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        end = append_event(match, Event.Kind.END, None, {"aborted": reason[:200]}, None)
        match.save(update_fields=["status", "finished_at", "updated_at"])
    notify_match_changed(match, seq=end.seq)
    return match


def hand_seat_to_agent(match_id: int, seat_index: int, agent_name: str, reason: str) -> Match:
    """An agent takes over a person's seat from now on (e.g. the person left a study round and the study goes on
    with its fallback agent). Logged as a SEAT event (who had it, who has it, why), so the log still says which
    actions the person made and which the agent; the match goes on, and the agent moves if it is its turn.
    A match that is over, or a seat an agent already plays, is left as it is."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.ACTIVE:
            return match
        seat = match.seats.select_for_update().filter(index=seat_index).first()
        if seat is None:
            raise ServiceError("no such seat")
        if seat.is_agent:
            return match
        if not agent_exists(agent_name) or not agent_plays(agent_name, match.game_id):
            raise ServiceError(f"agent {agent_name!r} cannot play this game")
        if refused := why_refused(agent_name, match.game_id, match.options):
            raise ServiceError(f"agent {agent_name!r} cannot play this match: {refused}")
        seat.controller = Seat.Controller.AGENT
        seat.agent_name = agent_name
        seat.save(update_fields=["controller", "agent_name"])
        payload = {"from": Seat.Controller.HUMAN, "agent": agent_name, "reason": reason[:200]}
        event = append_event(match, Event.Kind.SEAT, seat_index, payload, None)
        match.save(update_fields=["updated_at"])
    logger.info("match %s: agent %s took over seat %s (%s)", match_id, agent_name, seat_index, reason)
    notify_match_changed(match, seq=event.seq)
    schedule_agent_turns(match)
    return match


# The abort reason recorded when a person ends a match (or study round) an agent has kept waiting.
AGENT_SILENT_REASON = "agent did not answer"


def end_match_for_silent_agent(match_id: int, seat_index: int) -> Match:
    """A person whose seat has waited AGENT_WAY_OUT_SECONDS for an agent ends the match without a result.

    Checked under the match lock with the server's clock (``agent_wait``), so a request sent before the time,
    from a seat that may act itself, from an agent's seat, or after the agent answered is refused (ServiceError)
    and changes nothing; a match that is already over is returned as it is.
    """
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.ACTIVE:
            return match
        if not match.seats.filter(index=seat_index, controller=Seat.Controller.HUMAN).exists():
            raise ServiceError("Only a person's seat can end the wait for an agent.")
        wait = agent_wait(match, seat_index)
        if wait is None:
            raise ServiceError("No agent is keeping you waiting: the match goes on.")
        if not wait.way_out:
            raise ServiceError(f"The agent still has {wait.seconds_left} s to answer: the match goes on.")
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        append_event(match, Event.Kind.END, None, {"aborted": AGENT_SILENT_REASON}, None)
        match.save(update_fields=["status", "finished_at", "updated_at"])
    logger.warning("match %s ended by seat %s: %s", match_id, seat_index, AGENT_SILENT_REASON)
    notify_match_changed(match)
    return match
