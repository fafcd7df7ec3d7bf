"""Live play of realtime games (``GameSpec.realtime``, ``Game.live_play``): whether a seat's page streams frames
and holds inputs.

The clock itself is ``gameplay.live`` (started by a person's socket, ``gameplay.live.start``); at each decision
point it submits what each seat holds through ``services.apply_action`` like any move, so applying an action needs
nothing from here.
"""

from __future__ import annotations

from typing import Any

from .base import Capability, PageContext


class Live(Capability):
    name = "live"
    flags = ("realtime",)

    def applies_to(self, game) -> bool:
        return game.spec.realtime

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        return {"live": plays_live(page.game, page.seats)}


def plays_live(game, seats) -> bool:
    """A realtime game set to live play, with at least one person at the table."""
    if not (game.spec.realtime and game.live_play()):
        return False
    return any(not seat.is_agent for seat in seats)
