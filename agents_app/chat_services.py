"""Agents answering the chat between their own moves (issue 22): a partner asks on its turn, the agent answers.

``answer_chat`` runs as a Celery task (or on the turn runner's threads when Celery is eager), after a chat line
committed (``gameplay.signals.chat_posted``). It is idempotent: each answer is posted with the version it was
written for and only if the seat has said nothing since the lines it answers, so a second run of the task, or a
move made meanwhile, leaves the chat as it is (the model's calls are kept either way, marked not applied).
"""

from __future__ import annotations

import logging

from agents_app import context_selectors, selectors
from agents_app.services import decision_seed, record_calls, turn_view
from gameplay.models import Match, Seat
from gameplay.reads.agent_seats import AgentTable
from gameplay.writes import services as match_services

logger = logging.getLogger(__name__)


def answer_chat(match_id: int) -> int:
    """Let every agent seat that is not to move answer the lines written to it; returns the lines posted."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE:
        return 0
    talkers = [
        (seat, limit)
        for seat in match.seats.filter(controller=Seat.Controller.AGENT).order_by("index")
        if (limit := selectors.chat_replies_per_turn(seat.agent_name)) > 0
    ]
    if not talkers:  # most agents talk only with their moves: no state to read then
        return 0
    table = AgentTable(match)  # the match as its seats see it, never its state
    game = table.game
    if not game.chat_enabled():
        return 0
    to_move = set(table.to_act())  # a seat to move answers with its move, which reads the chat anyway
    posted = 0
    for seat, limit in talkers:
        if seat.index in to_move:
            continue
        seen = table.seat(seat.index)
        if not seen.view.chat_open:
            continue  # a seat that may read its team's chat but not write in it has nothing to answer with
        owed = context_selectors.owed_answer(match, game, seat.index, limit)
        if owed is None:
            continue
        try:
            agent = selectors.build_agent(seat.agent_name)
        except Exception as err:  # an unknown or broken agent plays by fallback; it just says nothing here
            logger.info("agent %s of match %s cannot answer the chat: %s", seat.agent_name, match_id, err)
            continue
        seed = decision_seed(match.seed, match.version, seat.index) ^ owed.answered_after
        extra = context_selectors.match_context(match, game, seat.index)
        view = turn_view(seen.view, seed, chat_log=extra.chat_log, history=extra.history)
        answer = agent.answer(view, owed.lines)
        if answer.problem:
            logger.warning("agent %s of match %s stays quiet: %s", seat.agent_name, match_id, answer.problem)
        event, not_applied = None, ""
        if answer.message:
            try:
                event = match_services.post_message(
                    match.pk, seat.index, answer.message,
                    expected_version=match.version, unless_spoke_after=owed.answered_after,
                )
                posted += 1
            except match_services.ServiceError as err:
                not_applied = str(err)
                logger.info("chat answer of %s in match %s not posted: %s", seat.agent_name, match_id, err)
        if answer.calls:
            record_calls(
                match_id=match.pk, event=event, seat=seat.index, agent_name=seat.agent_name, version=match.version,
                calls=answer.calls, fallback=False, not_applied=not_applied, what="chat answer",
            )
    return posted
