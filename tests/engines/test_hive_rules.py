"""Hive base rules on known positions, each built by replaying UHP moves."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.hive import HiveGame, load_game_string
from gameplay.engines.hive.moves import climb_ok

from .hive_helpers import (
    BLACK_WIN_MOVES,
    DRAW_MOVES,
    LINE,
    POCKET,
    POCKET_CELL,
    POCKET_DOOR,
    WIN_MOVES,
    placements,
    position,
    targets,
)

# A real random game (found by search) where Black, to move, has no placement and no movement.
PASS_GAME = (
    "Base;InProgress;Black[44];wB1;bG1 /wB1;wS1 wB1-;bG2 -bG1;wS2 \\wB1;bS1 \\bG2;wQ wS2/;bQ bG1\\;"
    "wA1 wS1/;bA1 bQ-;wG1 \\wQ;bS2 bG2\\;wA2 \\wG1;bB1 /bS1;wA3 /wA2;bB2 bQ\\;wA3 wG1/;bB2 bS2\\;"
    "wA3 \\wA1;bA2 bQ\\;wG2 wA1/;bA1 /wA2;wA2 bB2\\;bA1 /bS2;wA2 /wG1;bG3 bA2-;wA1 -bB1;bA3 bA2\\;"
    "wS1 wG2\\;bA3 wA3\\;wB2 \\wG1;bA3 wB1-;wA2 bB2\\;bA1 \\wA1;wG3 -wB2;bA3 wA2\\;wS1 wB1-;"
    "bA3 \\wG2;wA2 bB1\\;bA1 wS1-;wA1 bA3/;bA1 wA2\\;wA1 /wG1;bA1 wG3\\;wA1 -bB1;bA1 -bA3;"
    "wA2 wG3\\;bA1 \\bA3;wA1 /bB2;bS2 -bB1;wB2 wA2;bA1 \\wG1;wA1 -wG3;bA3 \\wA3;wA1 /bS2;"
    "bG3 -bB2;wG3 \\bA3;bA2 -bS1;wG2 wB2\\;bA3 wA3/;wG3 /wG2;bA2 bQ\\;wS1 bA3\\;bA3 \\bS2;"
    "wA1 \\wA3;bA3 -wG3;wB2 -bA1;bA2 wS1\\;wA2 -wG2;bG2 wB1\\;wA2 wA3\\;bA3 wB2\\;wA2 /bA2;"
    "bS2 -bG3;wA2 \\bA1;bA1 /bB1;wB1 bG2;bG1 wB1-;wA1 /bA2;bA1 bA2/;wA2 bA2\\;bA1 /bA3;"
    "wG2 bA2/;bA1 bB2\\;wA2 wB1\\;bA1 /bB1;wA3 /wB2"
)


def ids(state) -> list[str]:
    return [a.id for a in state.legal_actions(state.current_seats()[0])]


# --- placement -------------------------------------------------------------------------------------
def test_opening_placements():
    state = HiveGame().new_initial_state(0)
    assert sorted(ids(state)) == ["wA1", "wB1", "wG1", "wS1"]  # no queen on the first turn
    state.apply_action(0, "wS1")
    assert placements(state) == {(1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1)}
    assert not any(i.startswith("bQ") for i in ids(state))


def test_later_placements_touch_own_colour_only():
    state = position(LINE)  # wQ (-1,0), wS1 (0,0) | bS1 (1,0), bQ (2,0)
    # (0,1) and (1,-1) touch bS1 as well as wS1.
    assert placements(state) == {(-2, 0), (-1, -1), (0, -1), (-2, 1), (-1, 1)}
    state.apply_action(0, "wA1 -wQ")
    assert placements(state) == {(3, 0), (2, -1), (3, -1), (1, 1), (2, 1)}


def test_identical_bugs_in_hand_are_one_placement():
    state = position(["wS1", "bS1 wS1-"])
    placed = {i.split()[0] for i in ids(state)}
    assert placed == {"wQ", "wS2", "wB1", "wG1", "wA1"}  # wS2 is the lowest spider left


def test_no_movement_before_the_queen():
    state = position(["wS1", "bS1 wS1-", "wA1 -wS1", "bA1 bS1-"])
    assert all(a.path[0].startswith("hand:") for a in state.legal_actions(0))


def test_queen_forced_on_the_fourth_turn():
    state = position(["wS1", "bS1 wS1-", "wS2 -wS1", "bS2 bS1-", "wA1 -wS2", "bA1 bS2-"])
    assert state.observation(0).data["turn"] == 4
    actions = ids(state)
    assert actions and all(i.startswith("wQ ") for i in actions)
    with pytest.raises(IllegalActionError, match="queen must be placed"):
        state.apply_action(0, "wG1 -wA1")


# --- movement of each bug ---------------------------------------------------------------------------
def test_queen_moves_one_step_around_the_hive():
    assert targets(position(LINE), "wQ") == {(0, -1), (-1, 1)}


def test_spider_moves_exactly_three():
    state = position(LINE + ["wS2 -wQ", "bA1 bQ-"])
    assert targets(state, "wS2") == {(1, -1), (0, 1)}


def test_ant_goes_anywhere_around_the_hive():
    state = position(LINE + ["wA1 -wQ", "bA1 bQ-"])
    # The five other pieces lie in a row (-1..3, 0): 14 cells touch it, minus the ant's own.
    assert len(targets(state, "wA1")) == 13
    assert (4, 0) in targets(state, "wA1")


def test_grasshopper_jumps_in_lines_over_pieces():
    state = position(LINE + ["wG1 -wQ", "bA1 bQ-"])
    assert targets(state, "wG1") == {(4, 0)}


def test_one_hive_pins_bridge_pieces():
    state = position(LINE + ["wS2 -wQ", "bA1 bQ-"])
    assert targets(state, "wQ") == set() and targets(state, "wS1") == set()


def test_ant_cannot_pass_a_gate():
    state = position(POCKET + ["wA2 -wG2", "bG2 bG1-"])
    reach = targets(state, "wA2")
    assert POCKET_DOOR in reach and POCKET_CELL not in reach
    assert targets(state, "wA1") == set()  # the pocket's wall wA1 holds wG1 and wG2 to the hive


BEETLE = LINE + ["wB1 \\wS1", "bA1 bQ-", "wB1 \\bS1", "bS2 bQ\\"]


def test_beetle_steps_and_climbs_but_keeps_contact():
    state = position(BEETLE)  # wB1 at (1,-1)
    assert targets(state, "wB1") == {(0, -1), (0, 0), (1, 0), (2, -1)}


def test_beetle_stack_pins_the_covered_piece_and_takes_its_colour():
    before = position(BEETLE[:-1] + ["bS2 bQ\\", "wQ \\wS1"])
    assert (1, 1) in placements(before)  # next to bS1 and bQ, away from White
    state = position(BEETLE + ["wB1 bS1"])
    data = state.observation(1).data
    stack = [p for p in data["pieces"] if (p["q"], p["r"]) == (1, 0)]
    assert [(p["id"], p["height"], p["top"]) for p in stack] == [("bS1", 0, False), ("wB1", 1, True)]
    assert targets(state, "bS1") == set()
    assert (1, 1) not in placements(state)  # the stack now counts as White
    state.apply_action(1, "bA1 bS2\\")
    assert targets(state, "wB1") == {(0, 0), (0, 1), (1, -1), (1, 1), (2, -1), (2, 0)}


def test_beetle_gates_depend_on_its_level():
    state = position(POCKET + ["wB1 -wG2", "bG2 bG1-"])  # wB1 on the ground at (-3,1)
    assert {(-2, 1), (-2, 0)} <= targets(state, "wB1")  # it may climb wG2 or wG1
    state.apply_action(0, "wB1 wG2")
    state.apply_action(1, "bA3 bG2-")
    # On top (level 1) the gate stacks of height 1 are no higher than the beetle: it drops in.
    assert POCKET_CELL in targets(state, "wB1")
    state.apply_action(0, "wB1 wG2-")  # down to the pocket's door
    state.apply_action(1, "bS2 bA3-")
    reach = targets(state, "wB1")
    # On the ground the door is a closed gate (wS1 and wG2), but climbing either side is allowed.
    assert POCKET_CELL not in reach and {(0, 0), (-2, 1)} <= reach


def test_climbing_gate_rule():
    # climb_ok(level of the mover, height of the destination stack, gate heights)
    assert climb_ok(0, 0, 1, 0) and not climb_ok(0, 0, 1, 1)  # ground: freedom to move
    assert not climb_ok(0, 0, 0, 0)  # ground: must keep contact with the hive
    assert not climb_ok(1, 0, 2, 2) and not climb_ok(1, 1, 2, 2)  # both gates higher than both
    assert climb_ok(2, 0, 2, 2) and climb_ok(0, 2, 2, 2) and climb_ok(1, 0, 2, 1)


def test_pass_when_no_legal_move():
    state = load_game_string(PASS_GAME)
    assert state.current_seats() == [1]
    assert ids(state) == ["pass"]
    state.apply_action(1, "pass")
    assert state.current_seats() == [0] and state.observation(0).data["last_move"] == "pass"
    with pytest.raises(IllegalActionError, match="pass only"):
        state.apply_action(0, "pass")


def test_surrounded_queen_loses():
    state = position(WIN_MOVES)
    assert state.end_reason() is None
    state.apply_action(0, "wA1 \\bB1")
    assert state.is_terminal() and state.scores() == [1.0, 0.0] and state.winner() == 0
    data = state.observation(None).data
    assert data["status"] == "WhiteWins" and "Black's queen" in data["result"] and data["to_move"] is None
    assert state.current_seats() == [] and state.legal_actions(1) == []
    assert data["result"] == "White wins: Black's queen is surrounded."
    assert state.end_reason() == "Black's queen is surrounded on all six sides."


def test_a_surrounded_white_queen_is_blacks_win():
    state = position(BLACK_WIN_MOVES[:-1])
    state.apply_action(1, BLACK_WIN_MOVES[-1])
    assert state.is_terminal() and state.scores() == [0.0, 1.0] and state.winner() == 1
    assert state.observation(None).data["result"] == "Black wins: White's queen is surrounded."
    assert state.end_reason() == "White's queen is surrounded on all six sides."


def test_both_queens_surrounded_is_a_draw():
    state = position(DRAW_MOVES)
    state.apply_action(0, "wA1 wQ\\")
    assert state.is_terminal() and state.scores() == [0.5, 0.5] and state.winner() is None
    assert state.observation(0).data["status"] == "Draw"
    assert "both queens" in state.observation(0).data["result"]
    assert state.end_reason() == "Both queens were surrounded by the same move."


def test_turn_cap_draws():
    game = HiveGame({"max_turns": 6})
    assert game.max_actions() == 6
    state = game.new_initial_state(0)
    for move in ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"]:
        state.apply_action(state.current_seats()[0], move)
    assert state.is_terminal() and state.scores() == [0.5, 0.5]
    assert "turn limit of 6" in state.observation(None).data["result"]
    assert state.end_reason() == "The turn limit of 6 turns was reached with no winner."
    assert HiveGame().max_actions() == 500  # the hard cap when max_turns is 0
