"""Live play of realtime games (``GameSpec.realtime``, ``Game.live_play``): whether a seat's page streams frames
and holds inputs.

The clock itself is ``gameplay.live`` (started by a person's socket, ``gameplay.live.start``); at each decision
point it submits what each seat holds through ``services.apply_action`` like any move, so applying an action needs
nothing from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import ActionContext, Capability, PageContext


class Live(Capability):
    name = "live"
    flags = ("realtime",)

    def applies_to(self, game) -> bool:
        return game.spec.realtime

    def page_fields(self, page: PageContext) -> dict[str, Any]:
        return {"live": plays_live(page.game, page.seats)}

    def sends_committed_action(self, act: ActionContext) -> bool:
        # A realtime game commits a dozen times a second while its sockets redraw a few times
        # (gameplay.web.live_socket): the committed state (its log grows all bout) would be copied to them for
        # nothing, so they read the match.
        return False


def plays_live(game, seats) -> bool:
    """A realtime game set to live play, with at least one person at the table."""
    if not (game.spec.realtime and game.live_play()):
        return False
    return any(not seat.is_agent for seat in seats)


def with_live_options(game, seats_are_agents: Sequence[bool]) -> Any:
    """``game`` as a new match runs it: with its options for live play (``Game.options_for_live_play``) when it will
    run live, i.e. it is realtime, set to live play, and a person sits at the table (``seats_are_agents``: one bool
    per seat); else ``game`` itself."""
    if not (game.spec.realtime and game.live_play()) or all(seats_are_agents):
        return game
    options = game.options_for_live_play()
    if options == dict(game.options):
        return game
    return type(game)(options, num_seats=game.num_seats)
