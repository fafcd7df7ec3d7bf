"""Reads of a match for an agent seat's view beyond its observation: the recent chat, the latest moves in the
seat's own wording, and the chat lines it owes an answer.

An agent reads the chat as its seat's page shows it: every line, except a team chat's lines it is not in the audience
of (``payload["audience"]``, gameplay.reads.selectors.readable_by); moves are read through the per-seat labels the
engine
gave them. What an agent must never read is another seat's observation, label or team line, and nothing here shows
it one.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents_app.agents.base import ChatLine
from gameplay.engines.api import Game
from gameplay.models import Event, Match
from gameplay.reads.selectors import readable_by

# How many recent lines a view carries for a game that keeps chat outside its state.
CHAT_LOG_LINES = 12


def recent_chat(match: Match, game: Game, seat: int, limit: int = CHAT_LOG_LINES) -> tuple[ChatLine, ...]:
    """The last ``limit`` chat lines ``seat`` may read, oldest first, named by the game's seat names."""
    events = match.events.filter(kind=Event.Kind.MESSAGE).order_by("-seq")
    if not game.spec.team_chat:  # every line is everyone's
        return tuple(_line(event, game) for event in reversed(list(events[:limit])))
    lines: list[ChatLine] = []
    rows = events.iterator(chunk_size=limit + 1)
    try:
        for event in rows:
            if readable_by(event.payload, seat):
                lines.append(_line(event, game))
                if len(lines) == limit:
                    break
    finally:
        rows.close()  # as gameplay.reads.selectors.chat_page: never leave SQLite's cursor open mid-table
    return tuple(reversed(lines))


@dataclass(frozen=True)
class MatchContext:
    """What a view may carry beyond the seat's observation (TurnView.chat_log and TurnView.history)."""

    chat_log: tuple[ChatLine, ...] = ()
    history: tuple[str, ...] = ()


def match_context(match: Match, game: Game, seat: int) -> MatchContext:
    """The recent chat (only where the game keeps it outside its state: otherwise the observation has it) and the
    latest moves as ``seat`` read them. Two queries: read only for agents that use them (Agent.reads_match_context)."""
    chat_log = recent_chat(match, game, seat) if game.chat_enabled() and not game.spec.chat_in_state else ()
    return MatchContext(chat_log, recent_moves(match, game, seat))


# How many of the latest moves a view carries (an agent shows as many of them as it is configured to).
HISTORY_LIMIT = 20


def recent_moves(match: Match, game: Game, seat: int, limit: int = HISTORY_LIMIT) -> tuple[str, ...]:
    """The match's last ``limit`` moves, oldest first, each as ``seat`` reads it: the per-seat label the engine gave
    that move (ActionLabels.by_seat), the only wording of a move meant for this seat."""
    events = match.events.filter(kind=Event.Kind.ACTION).order_by("-seq")[:limit]
    lines = []
    for event in reversed(list(events)):
        labels = event.payload.get("labels") or []
        label = labels[seat] if 0 <= seat < len(labels) else event.payload.get("label", "")
        mover = "You" if event.seat == seat else game.seat_name(event.seat) if event.seat is not None else "?"
        lines.append(f"{mover}: {label}")
    return tuple(lines)


@dataclass(frozen=True)
class OwedAnswer:
    """Chat lines written to a seat since it last moved or spoke, which it has not answered yet."""

    lines: tuple[ChatLine, ...]
    # The seq of the seat's own last move or line: if it has posted anything after this, the lines are answered.
    answered_after: int


def owed_answer(match: Match, game: Game, seat: int, limit: int) -> OwedAnswer | None:
    """What ``seat`` owes an answer to, or None: nothing new addressed to it, or it has already sent ``limit``
    lines since its last move (the line sent with that move included)."""
    last_move = (
        match.events.filter(kind=Event.Kind.ACTION, seat=seat).order_by("-seq").values_list("seq", flat=True).first()
        or 0
    )
    mine = list(
        match.events.filter(kind=Event.Kind.MESSAGE, seat=seat, seq__gt=last_move).values_list("seq", flat=True)
    )
    if len(mine) >= limit:
        return None
    answered_after = max([last_move, *mine])
    new = match.events.filter(kind=Event.Kind.MESSAGE, seq__gt=answered_after).exclude(seat=seat).order_by("seq")
    lines = tuple(_line(event, game) for event in new if readable_by(event.payload, seat))
    lines = tuple(line for line in lines if addressed_to(line.text, game, seat))
    return OwedAnswer(lines, answered_after) if lines else None


def addressed_to(text: str, game: Game, seat: int) -> bool:
    """Whether a chat line speaks to ``seat``: with one partner every line does; with more, a line naming the
    seat (its name in the game, e.g. "Blue" or "Player 2") does."""
    if game.num_seats <= 2:
        return True
    return game.seat_name(seat).casefold() in text.casefold()


def _line(event: Event, game: Game) -> ChatLine:
    seat = event.seat if event.seat is not None else -1
    speaker = game.seat_name(seat) if seat >= 0 else "spectator"
    return ChatLine(seat=seat, speaker=speaker, text=str(event.payload.get("text", "")))
