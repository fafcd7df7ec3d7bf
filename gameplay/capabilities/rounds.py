"""Rounds played as a chain (``GameSpec.round_sequence``, ``Game.next_round_options``): where a match stands in
its chain, on a seat's page.

The next round is started by ``gameplay.writes.follow_ups.start_next_round`` (get or create, so both players land
in the same match). Applying an action needs nothing from rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gameplay.models import Match

from .base import Capability, PageContext


@dataclass(frozen=True)
class RoundSequence:
    """Where a match stands in a sequence of rounds, as one seat sees it."""

    number: int  # 1-based position of this match in its chain
    earlier: list[tuple[int, Match]]  # (number, match) of the finished rounds before this one
    next_token: str | None  # this seat's link into the next round, once someone started it
    can_start_next: bool  # the round is over and the game has another round


def round_sequence(match: Match, seat, game) -> RoundSequence | None:
    """None for games without rounds; otherwise this match's place in its chain of rounds."""
    if not game.spec.round_sequence:
        return None
    chain = []
    current = match.previous_round
    while current is not None and len(chain) < 100:
        chain.append(current)
        current = current.previous_round
    chain.reverse()
    following = Match.objects.filter(previous_round=match).first()
    next_token = None
    if following is not None and seat is not None:
        next_token = following.seats.filter(index=seat.index).values_list("token", flat=True).first()
    return RoundSequence(
        number=len(chain) + 1,
        earlier=[(i + 1, m) for i, m in enumerate(chain)],
        next_token=next_token,
        can_start_next=(
            match.status == Match.Status.FINISHED and not match.private and game.next_round_options() is not None
        ),
    )


class Rounds(Capability):
    name = "rounds"
    flags = ("round_sequence",)

    def applies_to(self, game) -> bool:
        return game.spec.round_sequence

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        return {"rounds": round_sequence(page.match, page.seat, page.game)}
