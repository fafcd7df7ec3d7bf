"""Agents take their turns: every pending agent decision of a match, decided on the seat's view and submitted through
the match service. Run by the Celery task ``agents_app.tasks.play_agent_turns`` (on a worker, or a runner thread with
eager Celery) and, in the worker that plays it, by a tournament entry (``agents_app.tournaments.services``)."""

from __future__ import annotations

import logging
from functools import partial

from agents_app import selectors
from agents_app.context_selectors import match_context
from agents_app.services import decide, decision_seed, record_calls
from gameplay.models import Event, Match, Seat
from gameplay.reads.agent_seats import AgentTable, late_decision_lands
from gameplay.writes import services as match_services

logger = logging.getLogger(__name__)

# A safety valve against a buggy engine that never hands the turn back to a human.
MAX_AGENT_ACTIONS_PER_TASK = 10_000


def play_pending_turns(match_id: int) -> int:
    """Play every pending agent decision of a match until a human must act or the match ends.

    Loops instead of re-queuing itself after each action, so long agent-vs-agent
    matches do not recurse in eager mode. Returns the number of actions applied.

    Idempotent, so it may run twice for one turn (a redelivered message, the stalled-turn watchdog of
    gameplay.writes.watchdog, two moves announcing the same agent): every decision is made for the version it read and
    submitted with ``expected_version``, so of two tasks deciding the same turn only the first move is applied;
    the other is refused with the match untouched (its model calls are kept, marked not applied), re-reads the
    match and plays only what is still pending. A task that finds no agent to move does nothing.
    """
    applied = rejected = 0
    committed = None  # the match as this task's last action committed it
    while applied < MAX_AGENT_ACTIONS_PER_TASK and rejected < 5:
        # After its own action the task goes on from the match that action committed instead of reading it again
        # (a live bout commits an agent action a dozen times a second, and the state grows all bout): a move made
        # since by someone else only makes the next submission refused, and the match is then read again.
        match, committed = committed or Match.objects.filter(pk=match_id).first(), None
        if match is None or match.status != Match.Status.ACTIVE:
            break
        agents = {s.index: s.agent_name for s in match.seats.filter(controller=Seat.Controller.AGENT)}
        table = AgentTable(match)  # the match as its seats see it: views and a referee, never the state
        pending = [seat for seat in table.to_act() if seat in agents]
        if not pending:
            break
        seat = pending[0]
        seed = decision_seed(match.seed, match.version, seat)
        seen = table.seat(seat, with_next_actors=selectors.wants_next_actors(agents[seat]),
                          sample_seed=seed if selectors.wants_search_root(agents[seat]) else None)
        context = partial(match_context, match, table.game, seat)
        turn = decide(agents[seat], seen.view, seed, refusal=seen.refusal, context=context,
                      search_root=seen.search_root)
        extra = {"agent": agents[seat], "agent_think_ms": turn.think_ms}
        if turn.fallback:
            extra.update(fallback=True, fallback_reason=turn.reason[:500])
        if turn.calls:
            extra["model_calls"] = len(turn.calls)
        if turn.decision.note:
            extra["agent_note"] = turn.decision.note[:300]
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
            after = _submit_late(match, seat, turn.decision, extra)
            if after is None:
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
        committed = after
        if turn.decision.message:
            committed = None  # the chat line changed the match again
            try:
                match_services.post_message(match.pk, seat, turn.decision.message)
            except match_services.ServiceError as err:
                logger.info("agent message dropped: %s", err)
    return applied


def _submit_late(match: Match, seat: int, decision, extra: dict) -> Match | None:
    """A live match of a realtime game does not wait (gameplay.live): its clock moved on while the agent decided.
    The decision still counts at the decision point where it lands, if the seat has not chosen there yet and the
    action is legal there, marked late with the version it was decided at; None otherwise (nothing applied)."""
    current = Match.objects.filter(pk=match.pk).first()
    if current is None or current.status != Match.Status.ACTIVE:
        return None
    if not late_decision_lands(current, seat, decision.action_id):
        return None
    try:
        return match_services.submit_action(
            current.pk, seat, decision.action_id, expected_version=current.version, schedule_agents=False,
            extra={**extra, "late": True, "decided_at_version": match.version},
        )
    except match_services.ActionRejected:
        return None


def _action_event(match_id: int, seat: int, version: int) -> Event | None:
    """The event submit_action just appended (its version is the match version it returned)."""
    return Event.objects.filter(match_id=match_id, kind=Event.Kind.ACTION, seat=seat, version=version).first()
