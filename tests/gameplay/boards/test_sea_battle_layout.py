"""Sea Battle's board presenter (gameplay/boards/sea_battle.py): the drawing of one seat view, showing no more than
the viewer may see, and an order pad that says what the engine's orders say."""

from __future__ import annotations

from gameplay.boards.sea_battle import SeaBattleBoard
from gameplay.engines.sea_battle import SeaBattleGame
from tests.engines.sea_battle_support import position

BOARD = SeaBattleBoard()


def test_layout_for_a_seat_and_for_the_public():
    state = SeaBattleGame().new_initial_state(2)
    layout = BOARD.layout(state.seat_view(0))
    assert layout["current"] == "R1" and len(layout["pad"]) == 4 and len(layout["guns"]) == 6
    assert {s["id"] for s in layout["enemy_fleet"]} == {"B1", "B2", "B3"}
    assert all(s["damage"] is None for s in layout["enemy_fleet"])
    public = BOARD.layout(state.seat_view(None))
    assert public["pad"] == [] and public["current"] is None


def test_order_pad_says_when_a_move_strikes_rock():
    # R1 at (1,5) faces the West border: forward would "reach" (0,5), a rock, so it stays and takes 1 damage (the
    # engine's order labels say the same: tests/engines/test_sea_battle.py).
    state = position([("R1", 0, 1, 5, "W"), ("B1", 1, 10, 10, "N")])
    pad = {row["move"]: row for row in BOARD.layout(state.seat_view(0))["pad"]}
    assert pad["forward"]["to"] == "(1,5) West · rock!"
    assert pad["forward"]["orders"][0]["aria"].startswith("R1: forward, strikes rock (+1 damage), at (1,5) facing West")


def test_given_orders_are_read_from_their_action_ids():
    state = SeaBattleGame().new_initial_state(2)
    state.apply_action(0, "forward_L")
    orders = BOARD.layout(state.seat_view(0))["my_orders"]
    assert orders == [{"ship": "R1", "text": "forward + port"}]
