"""Shared helpers of the Sea Battle engine tests: a state with exactly the ships and rocks a test places, and a turn
played with the orders a test gives."""

from __future__ import annotations

from gameplay.engines.sea_battle import SeaBattleGame, SeaBattleState
from gameplay.engines.sea_battle.board import Ship


def position(ships: list[tuple], rocks: tuple = (), **options) -> SeaBattleState:
    """A state with exactly these ships (id, team, x, y, heading[, damage]) and interior rocks."""
    state = SeaBattleGame(options).new_initial_state(0)
    state.ships = [Ship(*s) for s in ships]
    state.rocks = sorted(rocks)
    return state


def play_turn(state: SeaBattleState, orders: dict[str, str], default: str = "stay_L") -> None:
    """Give every live ship its order (``default`` for ships not named), fleet by fleet, resolving the turn."""
    turn = state.turn
    for seat in (0, 1):
        while seat in state.current_seats() and state.turn == turn:
            ship = state.next_ship(seat)
            state.apply_action(seat, orders.get(ship.id, default))
