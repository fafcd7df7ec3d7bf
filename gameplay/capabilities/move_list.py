"""The move list beside the board: the match's recent actions as this seat reads them (issue 39, point 3).

Every turn-based game has one; a realtime game (``GameSpec.realtime``) acts many times a second, where a list of
held inputs would say nothing, so it has none. Each line is the action's label for this seat (``labels[seat]`` of
its event, the public label for spectators), the wording of the page's "Last:" line (``action_words``), so a seat
never reads in the list what it could not read on its board. Newest first; the whole log is in the replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gameplay.models import Event

from .action_words import last_action_text
from .base import Capability, PageContext

MOVE_LIST_LENGTH = 30  # lines on the page; every frame redraws them, so the list stays short


@dataclass(frozen=True)
class MoveLine:
    number: int  # the match's version after the action: its place among the match's actions
    text: str
    mine: bool  # the viewing seat's own action


def recent_actions(match_id: int, length: int = MOVE_LIST_LENGTH) -> list[dict]:
    """The newest ``length`` action events of the match, newest first, as {"seat", "payload", "version"}: read once
    by the service that applies an action and carried to the match's sockets with it (gameplay.writes.committed), so
    no socket reads them again."""
    rows = (
        Event.objects.filter(match_id=match_id, kind=Event.Kind.ACTION)
        .order_by("-seq")
        .values("seat", "payload", "version")[:length]
    )
    return list(rows)


def rows_for(game, match_id: int) -> list[dict] | None:
    """The move list's rows as the match stands (one query), or None for a game without a move list. The service
    reads them once per commit and sends them with its message; a page drawn without one reads them here, and the
    newest row is then also the page's "Last:" line (no second query)."""
    return recent_actions(match_id) if _MOVE_LIST.applies_to(game) else None


def recent_moves(page: PageContext) -> list[MoveLine]:
    """The match's newest actions, newest first, worded for the page's seat."""
    rows = page.recent_actions if page.recent_actions is not None else recent_actions(page.match.pk)
    return [
        MoveLine(row["version"], last_action_text(row, page.names, page.index) or "",
                 page.index is not None and row["seat"] == page.index)
        for row in rows
    ]


class MoveList(Capability):
    name = "move_list"
    flags = ("realtime",)

    def applies_to(self, game) -> bool:
        return not game.spec.realtime

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        return {"moves": recent_moves(page)}


_MOVE_LIST = MoveList()
