"""Writes: a chat line from a seat (an event beside the actions, never an action), with its readers in a team chat.

Reached as ``gameplay.writes.services.post_message`` too, like every other write.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gameplay.engines.api import EngineError
from gameplay.models import Event, Match
from gameplay.reads.selectors import game_of
from gameplay.writes.announce import notify_match_changed, schedule_chat_posted
from gameplay.writes.match_log import ServiceError, append_event, locked_match
from gameplay.writes.text_input import TextRejected, clean_text


def post_message(
    match_id: int,
    seat_index: int,
    text: Any,
    *,
    expected_version: int | None = None,
    unless_spoke_after: int | None = None,
) -> Event:
    """Append a chat line from a seat. Chat is an event beside the actions, not an action.

    Refused when the game (with this match's options) has no chat: ``Game.chat_enabled()``, when the text
    is not clean (``text_input``: valid Unicode, no NUL or control characters but newline and tab, bounded), and
    when the seat already sent MAX_CHAT_PER_MINUTE lines in the last minute (counted from the log, so the limit
    holds for every caller and across server processes). In a game with team chat (``GameSpec.team_chat``) a seat
    the engine mutes (``State.may_chat``) is refused, and the line keeps its readers (``State.chat_audience``, the
    sender always among them) as ``payload["audience"]``, which every reader of the chat honours.

    An agent answering between its moves passes the two guards, checked under the match lock: ``expected_version``
    (the line was written for that position; refused once somebody has moved) and ``unless_spoke_after`` (refused
    when this seat has posted a line after that event already: a second run of the same reply task says nothing).
    """
    try:
        text = clean_text(text, max_length=settings.MAX_CHAT_LENGTH, multiline=True, what="message")
    except TextRejected as err:
        raise ServiceError(str(err)) from None
    if not text:
        raise ServiceError("empty message")
    with transaction.atomic():
        match = locked_match(match_id)
        game = game_of(match)
        if not game.chat_enabled():
            raise ServiceError("chat is off in this match")
        if match.status != Match.Status.ACTIVE:
            raise ServiceError("the match is over")
        limit = settings.MAX_CHAT_PER_MINUTE
        recent = match.events.filter(
            kind=Event.Kind.MESSAGE, seat=seat_index, created_at__gte=timezone.now() - timedelta(minutes=1)
        )
        if recent.count() >= limit:  # counted under the match lock: two lines sent at once cannot both slip in
            raise ServiceError(f"too many messages: at most {limit} a minute; please wait a little")
        if expected_version is not None and match.version != expected_version:
            raise ServiceError(f"the match moved on (version {match.version}, not {expected_version})")
        if unless_spoke_after is not None and match.events.filter(
            kind=Event.Kind.MESSAGE, seat=seat_index, seq__gt=unless_spoke_after
        ).exists():
            raise ServiceError("this seat has already spoken since")
        fields = ["updated_at"]
        payload: dict[str, Any] = {"text": text}
        state = game.state_from_json(match.state) if game.spec.chat_in_state or game.spec.team_chat else None
        if game.spec.team_chat:
            # A team's chat: the engine says who may post now and who reads the line (chat_page filters on it).
            if not state.may_chat(seat_index):
                raise ServiceError(f"{game.seat_name(seat_index)} may not write in the team chat now")
            audience = state.chat_audience(seat_index)
            if audience is not None:
                payload["audience"] = sorted({int(s) for s in audience} | {seat_index})
        if game.spec.chat_in_state:
            # Games whose observations include the chat (Gnomes at Night) keep it in their state too,
            # so agents read it from their observation like everything else they know.
            try:
                state.record_message(seat_index, text)
            except EngineError as err:
                raise ServiceError(str(err)) from None
            match.state = state.to_json()
            fields.append("state")
        event = append_event(match, Event.Kind.MESSAGE, seat_index, payload, None)
        match.save(update_fields=fields)
        schedule_chat_posted(match, seat_index, event.seq)
    notify_match_changed(match, seq=event.seq)
    return event
