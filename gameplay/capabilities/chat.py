"""Chat and team chat (``GameSpec.has_chat`` with ``Game.chat_enabled()``, ``chat_in_state``, ``team_chat``): who
reads which line, and the chat box of a seat's page.

A line is posted by ``gameplay.writes.chat_posting.post_message`` (reached as ``services.post_message``), which asks the
engine whether a seat may write in its team chat and keeps the line's readers; replays keep an engine's chat in its
state (``selectors.replay_frames``). Applying an action needs nothing from chat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from gameplay.models import Event

from .base import Capability, PageContext


@dataclass(frozen=True)
class ChatLine:
    seat: int
    name: str
    text: str
    at: object
    seq: int = 0  # the message event's place in the match log


@dataclass(frozen=True)
class ChatPage:
    """The newest chat lines one seat may read, oldest first, and where they end in the log."""

    lines: list[ChatLine]
    more: bool  # older lines exist that are not in ``lines`` (they stay in the log, the replay and the export)
    last_seq: int  # seq of the newest message event looked at, readable or not (the start for the next page)


def readable_by(payload: dict, seat_index: int | None) -> bool:
    """Whether ``seat_index`` (None: spectators, public replays) may read the chat line of a MESSAGE event: a line
    without ``payload["audience"]`` is everyone's; a team chat's line (``State.chat_audience``) only its seats'."""
    audience = payload.get("audience")
    return audience is None or (seat_index is not None and seat_index in audience)


def chat_page(
    match_id: int, seat_index: int | None, names: dict[int, str], *, after_seq: int = 0, limit: int | None = None
) -> ChatPage:
    """The newest chat lines ``seat_index`` may read among the messages after event ``after_seq``: at most
    ``limit`` (default CHAT_HISTORY_SHOWN), so neither a page nor a socket frame grows with a long chat."""
    limit = settings.CHAT_HISTORY_SHOWN if limit is None else limit
    messages = (
        Event.objects.filter(match_id=match_id, kind=Event.Kind.MESSAGE, seq__gt=after_seq)
        .order_by("-seq")
        .values_list("seq", "seat", "payload", "created_at")
    )
    lines: list[ChatLine] = []
    last_seq = after_seq
    more = False
    rows = messages.iterator(chunk_size=limit + 1)
    try:
        for seq, seat, payload, at in rows:
            last_seq = max(last_seq, seq)
            if not readable_by(payload, seat_index):
                continue
            if len(lines) == limit:
                more = True
                break
            lines.append(ChatLine(seat, names.get(seat, f"seat {seat}"), payload.get("text", ""), at, seq))
    finally:
        # Close the cursor now, not when the generator is collected: a cursor left open mid-table holds SQLite's
        # lock on the event table, and another thread's insert then fails with "database table is locked".
        rows.close()
    lines.reverse()
    return ChatPage(lines, more, last_seq)


class Chat(Capability):
    name = "chat"
    flags = ("has_chat", "chat_in_state", "team_chat")

    def applies_to(self, game) -> bool:
        # The declared hook, not the flag alone: options may switch chat off (Gnomes' mute study condition).
        return game.chat_enabled()

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        """The chat box: the newest lines this seat may read, and in a team chat whether it may write."""
        chat = chat_page(page.match.pk, page.index, page.names) if page.with_chat else ChatPage([], False, 0)
        team_chat = page.game.spec.team_chat
        may_chat = page.index is not None and (not team_chat or bool(page.state.may_chat(page.index)))
        return {"chat": chat.lines, "chat_more": chat.more, "chat_seq": chat.last_seq, "chat_enabled": True,
                "team_chat": team_chat, "may_chat": may_chat}
