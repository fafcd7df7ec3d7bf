"""Mosquito, Ladybug and Pillbug rules on known positions."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError

from .hive_helpers import LINE, POCKET, POCKET_CELL, position, targets, where


# --- mosquito -----------------------------------------------------------------------------------------
def test_mosquito_copies_its_neighbours():
    # wM at (-2,0) touches wQ (queen steps) and wG1 at (-1,-1) (grasshopper jumps).
    state = position(LINE + ["wG1 \\wQ", "bA1 bQ-", "wM -wQ", "bS2 bA1-"], "Base+M")
    queen_steps = {(-2, -1), (-2, 1)}
    jumps = {(5, 0), (0, -2)}  # east over the whole row, north-east over wG1
    assert targets(state, "wM") == queen_steps | jumps


def test_mosquito_touching_only_a_mosquito_cannot_move():
    moves = [
        "wS1", "bS1 wS1-", "wQ -wS1", "bM bS1/", "wA1 -wQ", "bQ bS1\\", "wM \\wA1", "bA1 bQ\\",
        "wM bM/",  # the mosquito moves as an ant (it touches wA1) to a cell touching only bM
        "bA2 bA1\\",
    ]
    state = position(moves, "Base+M")
    assert where(state, "wM") == (3, -2)
    assert targets(state, "wM") == set()


def test_mosquito_on_top_moves_as_a_beetle():
    moves = LINE + ["wB1 \\wQ", "bA1 bQ-", "wM -wQ", "bA2 bA1-", "wM wQ", "bA3 bA2-"]
    state = position(moves, "Base+M")  # wM climbed onto wQ by copying wB1
    assert targets(state, "wM") == {(-2, 0), (-2, 1), (-1, -1), (-1, 1), (0, -1), (0, 0)}
    assert targets(state, "wQ") == set()  # covered


# --- ladybug ------------------------------------------------------------------------------------------
def test_ladybug_two_up_one_down():
    state = position(POCKET + ["wL -wG2", "bG2 bG1-"], "Base+L")  # wL at (-3,1), next to wG1 and wG2
    # Over wG2/wG1/wA1 and down: it even drops into the gated pocket an ant cannot enter.
    assert targets(state, "wL") == {
        (-2, -1), (-1, -2), (0, -2), (-1, 0), (-1, 1), (-2, 2), (-3, 2), (-3, 0),
    }
    assert POCKET_CELL in targets(state, "wL")
    assert (-3, 1) not in targets(state, "wL")  # never back where it started


# --- pillbug ------------------------------------------------------------------------------------------
# wA1 (-2,0), wQ (-1,0), wP (0,0), bS1 (1,0); bQ just moved next to the pillbug, to (0,1).
PILLBUG = ["wP", "bS1 wP-", "wQ -wP", "bQ bS1\\", "wA1 -wQ", "bQ /bS1"]


def test_pillbug_lifts_a_neighbour_over_itself():
    state = position(PILLBUG, "Base+P")
    assert targets(state, "bS1") == {(0, -1), (1, -1), (-1, 1)}
    labels = {a.label for a in state.legal_actions(0) if a.id.startswith("bS1")}
    assert "Pillbug: move Black Spider 1 to north-west of White Pillbug" in labels


def test_pillbug_restrictions():
    state = position(PILLBUG, "Base+P")
    assert targets(state, "bQ") == set()  # it moved last turn
    assert targets(state, "wQ") == set()  # lifting it would cut wA1 off the hive
    assert targets(state, "wP") == set()  # the pillbug itself is a bridge, yet its special works
    state.apply_action(0, "bS1 \\wP")
    assert where(state, "bS1") == (0, -1)
    assert state.observation(1).data["pinned"] == ["bS1"]
    assert targets(state, "bS1") == set()  # moved by the pillbug: frozen for Black's turn
    with pytest.raises(IllegalActionError, match="moved last turn"):
        state.apply_action(1, "bS1 wP/")


def test_pillbug_cannot_lift_a_stacked_piece():
    moves = ["wP", "bB1 wP-", "wQ -wP", "bQ bB1\\", "wA1 -wQ", "bQ /bB1", "wS1 -wA1", "bB1 bQ"]
    state = position(moves, "Base+P")  # bB1 on bQ at (0,1), next to the pillbug
    assert where(state, "bB1") == (0, 1)
    assert targets(state, "bB1") == set() and targets(state, "bQ") == set()


def test_mosquito_touching_a_pillbug_uses_the_special():
    state = position(["wP", "bS1 wP-", "wQ -wP", "bQ bS1\\", "wM \\wP", "bQ /bS1"], "Base+MP")
    # wQ's own steps, lifts by wP, and lifts by wM (at (0,-1), copying wP) to (0,-2) and (1,-2).
    assert targets(state, "wQ") == {(-1, -1), (-1, 1), (1, -1), (0, -2), (1, -2)}
