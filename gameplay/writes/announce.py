"""After a change has committed: telling the match's sockets (the group message) and the listeners of the match
layer's signals (agent turns due, matches finished). Nothing here can undo or fail the change: a failed send is
logged (and for sockets retried), never raised to the caller of the service.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from gameplay.engines.api import State
from gameplay.models import Match, Seat
from gameplay.reads.selectors import match_group_name, state_of
from gameplay.signals import agent_turn_due, chat_posted, match_finished
from gameplay.writes.committed import CommittedAction

logger = logging.getLogger(__name__)

# Pauses between attempts to tell a match's sockets that it changed (short: the caller waits for them).
NOTIFY_RETRY_DELAYS = (0.05, 0.25)

_handoff = threading.local()  # .loop: the event loop this thread hands its group messages to (``sent_from``)


@contextmanager
def sent_from(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """Within this block, on this thread, ``notify_match_changed`` hands each group message to ``loop`` (the running
    event loop of this server process) and returns at once, instead of waiting for the loop to send it.

    Why (issue 39, point 6): a match socket's work runs on a few worker threads (on the embedded default, one), and
    the send itself runs on the event loop. Waiting for it kept that thread idle for as long as the loop took to get
    round to it (measured: 7 ms a move with 10 Pit tables, against 6 ms of the thread's own CPU for the move), while
    every other socket's work queued behind. The send still happens, retried as before; the commit it reports is
    already done, and the mover's own socket draws from it whatever becomes of the send."""
    previous = getattr(_handoff, "loop", None)
    _handoff.loop = loop
    try:
        yield
    finally:
        _handoff.loop = previous


def notify_match_changed(match: Match, seq: int | None = None, change: CommittedAction | None = None) -> bool:
    """Tell every connected seat of this match to re-render its own view; returns whether the message got out (or,
    inside ``sent_from``, that it was handed to the event loop, which then sends it).

    Runs after the change has committed, so a failure here can neither undo nor hide it: the caller's result
    stands (the mover's own socket renders from the database, not from this message). A failed send (e.g. Redis
    cut for a moment) is logged and retried after each of NOTIFY_RETRY_DELAYS; sockets that still miss it render
    the current state once they have been quiet for SOCKET_CATCH_UP_SECONDS (gameplay.web.consumers), or when
    they reconnect. ``seq`` is the match's newest event, so a socket that has already
    rendered it can skip the echo; None (no new event, e.g. a next round was linked) asks every socket to render.
    ``change``, for an applied action: the committed result, which lets a socket one commit behind draw it without
    reading the database (gameplay.writes.committed).
    """
    layer = get_channel_layer()
    if layer is None:
        return False
    message = {"type": "match.changed", "version": match.version}
    if seq is not None:
        message["seq"] = seq
    if change is not None:
        message["committed"] = change.to_message()
    send = _send_with_retries(layer, match_group_name(match.pk), message, match.pk, match.version)
    loop = getattr(_handoff, "loop", None)
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(send, loop)  # it logs its own failure; nobody waits for it (sent_from)
        return True
    try:
        return async_to_sync(_await)(send)
    except Exception:  # e.g. called on a thread that runs an event loop itself: still never the caller's failure
        send.close()
        logger.exception("could not notify match %s of version %s", match.pk, match.version)
        return False


async def _await(send) -> bool:
    return await send


async def _send_with_retries(layer, group: str, message: dict, match_id: int, version: int) -> bool:
    for attempt, delay in enumerate((*NOTIFY_RETRY_DELAYS, None), start=1):
        try:
            await layer.group_send(group, message)
            return True
        except Exception:
            if delay is None:
                logger.exception("could not notify match %s of version %s after %d attempts", match_id, version,
                                 attempt)
                return False
            logger.warning("notifying match %s failed (attempt %d); retrying", match_id, attempt, exc_info=True)
            await asyncio.sleep(delay)
    return False


def schedule_agent_turns(match: Match, state: State | None = None) -> None:
    """If a seat played by an agent must act now, send ``agent_turn_due`` once the current transaction commits.

    Outside a transaction (autocommit) Django runs the on-commit callback at once; inside one (a caller's
    ``atomic`` block) it waits for the commit and is dropped on rollback, so a worker never reads a match
    that is not committed yet. agents_app listens and queues its task (eager Celery plays it in-process).
    """
    if match.status != Match.Status.ACTIVE or match.wait_for_players:
        return
    state = state_of(match) if state is None else state  # the caller's, when it has the committed state in hand
    agent_seats = set(match.seats.filter(controller=Seat.Controller.AGENT).values_list("index", flat=True))
    if agent_seats & set(state.current_seats()):
        transaction.on_commit(partial(_announce_agent_turn_due, match.pk))


def _announce_agent_turn_due(match_id: int) -> None:
    """Send agent_turn_due; a failing receiver (e.g. a broker that is down) is logged, the move stays applied."""
    for receiver, result in agent_turn_due.send_robust(sender=Match, match_id=match_id):
        if isinstance(result, Exception):
            logger.error("agent_turn_due receiver %r failed for match %s", receiver, match_id, exc_info=result)


def announce_finished(match_id: int, game_id: str) -> None:
    """Send match_finished; a failing receiver is logged, never turned into a failed action."""
    for receiver, result in match_finished.send_robust(sender=Match, match_id=match_id, game_id=game_id):
        if isinstance(result, Exception):
            logger.error("match_finished receiver %r failed for match %s", receiver, match_id, exc_info=result)


def schedule_chat_posted(match: Match, seat: int, seq: int) -> None:
    """Send ``chat_posted`` once the current transaction commits, if an agent other than the sender sits in the
    match (an agent may answer between its moves; nobody else listens)."""
    if match.seats.filter(controller=Seat.Controller.AGENT).exclude(index=seat).exists():
        transaction.on_commit(partial(_announce_chat_posted, match.pk, seat, seq))


def _announce_chat_posted(match_id: int, seat: int, seq: int) -> None:
    for receiver, result in chat_posted.send_robust(sender=Match, match_id=match_id, seat=seat, seq=seq):
        if isinstance(result, Exception):
            logger.error("chat_posted receiver %r failed for match %s", receiver, match_id, exc_info=result)


