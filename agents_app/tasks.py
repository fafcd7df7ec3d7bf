"""Celery tasks: agents take their turns. Eager in-process by default, on workers when REDIS_URL is set."""

from __future__ import annotations

import logging

from celery import shared_task

from agents_app.services import decide, decision_seed, record_calls
from gameplay import services as match_services
from gameplay.models import Event, Match, Seat
from gameplay.selectors import state_of

logger = logging.getLogger(__name__)

# A safety valve against a buggy engine that never hands the turn back to a human.
MAX_AGENT_ACTIONS_PER_TASK = 10_000


@shared_task(name="agents_app.play_agent_turns")
def play_agent_turns(match_id: int) -> int:
    """Play every pending agent decision of a match until a human must act or the match ends.

    Loops instead of re-queuing itself after each action, so long agent-vs-agent
    matches do not recurse in eager mode. Returns the number of actions applied.
    """
    applied = rejected = 0
    while applied < MAX_AGENT_ACTIONS_PER_TASK and rejected < 5:
        match = Match.objects.filter(pk=match_id).first()
        if match is None or match.status != Match.Status.ACTIVE:
            break
        agents = {s.index: s.agent_name for s in match.seats.filter(controller=Seat.Controller.AGENT)}
        state = state_of(match)
        pending = [seat for seat in state.current_seats() if seat in agents]
        if not pending:
            break
        seat = pending[0]
        turn = decide(agents[seat], match.game_id, state, seat, decision_seed(match.seed, match.version, seat))
        extra = {"agent": agents[seat], "agent_think_ms": turn.think_ms}
        if turn.fallback:
            extra.update(fallback=True, fallback_reason=turn.reason[:500])
        if turn.calls:
            extra["model_calls"] = len(turn.calls)
        transcript = {
            "match_id": match.pk,
            "seat": seat,
            "agent_name": agents[seat],
            "version": match.version,
            "calls": turn.calls,
            "fallback": turn.fallback,
        }
        try:
            after = match_services.submit_action(
                match.pk,
                seat,
                turn.decision.action_id,
                text=turn.decision.text,
                expected_version=match.version,
                extra=extra,
                schedule_agents=False,
            )
        except match_services.ActionRejected as err:
            # Someone else moved first (another worker or a simultaneous seat); re-read and go on.
            logger.info("agent action for match %s seat %s not applied: %s", match_id, seat, err)
            if turn.calls:  # the model was paid for: keep what it said, marked as not applied
                record_calls(event=None, not_applied=str(err), **transcript)
            rejected += 1
            continue
        if turn.calls:
            record_calls(event=_action_event(match.pk, seat, after.version), **transcript)
        applied += 1
        rejected = 0
        if turn.decision.message:
            try:
                match_services.post_message(match.pk, seat, turn.decision.message)
            except match_services.ServiceError as err:
                logger.info("agent message dropped: %s", err)
    return applied


def _action_event(match_id: int, seat: int, version: int) -> Event | None:
    """The event submit_action just appended (its version is the match version it returned)."""
    return Event.objects.filter(match_id=match_id, kind=Event.Kind.ACTION, seat=seat, version=version).first()


# Tournament tasks live in their own module; importing it here registers them with Celery.
from agents_app import tournament_tasks  # noqa: E402, F401
