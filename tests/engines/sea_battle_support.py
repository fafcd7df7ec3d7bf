"""Shared helpers of the Sea Battle engine tests: a state with exactly the ships and rocks a test places."""

from __future__ import annotations

from gameplay.engines.sea_battle import SeaBattleGame, SeaBattleState
from gameplay.engines.sea_battle.board import Ship


def position(ships: list[tuple], rocks: tuple = (), **options) -> SeaBattleState:
    """A state with exactly these ships (id, team, x, y, heading[, damage]) and interior rocks."""
    state = SeaBattleGame(options).new_initial_state(0)
    state.ships = [Ship(*s) for s in ships]
    state.rocks = sorted(rocks)
    return state
