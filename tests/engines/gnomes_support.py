"""Shared helpers of the Gnomes at Night engine tests: the moves that find round 1's treasure, a new round, moves
played by whichever seat is to move, a state as sorted JSON, and the walls only one side has."""

from __future__ import annotations

import json

from gameplay.engines.gnomes import GnomesGame, GnomesState
from gameplay.engines.gnomes.layouts import default_layouts

# Round 1 (treasure (4, 0), seen by side 0): Gnome A right, B right, A right, B right (blocked: side 1 has
# 3,0:right), A right onto the treasure.
ROUND1_PATH = ["right", "right", "right", "right", "right"]


def new_state(**options) -> GnomesState:
    return GnomesGame(options).new_initial_state(0)


def play(state: GnomesState, moves: list[str]) -> GnomesState:
    """Apply moves in order, each by whichever seat is to move."""
    for move in moves:
        state.apply_action(state.current_seats()[0], move)
    return state


def dump(state: GnomesState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def exclusive_walls(side: int) -> set[str]:
    walls = default_layouts().walls
    return set(walls[side] - walls[1 - side])
