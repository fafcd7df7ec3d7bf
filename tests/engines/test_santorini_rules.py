"""Santorini engine rules on known positions: setup, moving, building, winning and losing (incl. the variants)."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.santorini import SantoriniGame
from tests.engines.santorini_support import STUCK_A, THREE_TO_THREE, ids, level, position


# --- setup -------------------------------------------------------------------
def test_placement_order_seat0_twice_then_seat1_twice():
    state = SantoriniGame().new_initial_state(1)
    assert state.current_seats() == [0]
    assert len(ids(state)) == 25 and ids(state)[0] == "place:a1"
    with pytest.raises(IllegalActionError):
        state.apply_action(1, "place:c3")
    state.apply_action(0, "place:c3")
    assert state.current_seats() == [0]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "place:c3")  # occupied
    state.apply_action(0, "place:d4")
    assert state.current_seats() == [1]
    assert "place:c3" not in ids(state) and len(ids(state)) == 23
    state.apply_action(1, "place:a1")
    state.apply_action(1, "place:e5")
    assert state.current_seats() == [0] and state.phase == "move"
    data = state.observation(None).data
    assert data["rows"][2][2]["worker"] == {"seat": 0, "id": "A"}  # c3
    assert data["rows"][1][3]["worker"] == {"seat": 0, "id": "B"}  # d4
    assert data["rows"][0][4]["worker"] == {"seat": 1, "id": "B"}  # e5
    assert data["rows"][4][0]["worker"] == {"seat": 1, "id": "A"}  # a1


def test_action_labels_and_paths():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 1. 0.
    0. 0. 0A 3. 0.
    0. 0. 0. 0. 0.
    0a 0. 0. 0b 0B
    """)
    move = {a.id: a for a in state.legal_actions(0)}["move:c3-d4"]
    assert move.label == "Move worker A from C3 to D4 (level 0 → 1)"  # the worker by its letter, then the cells
    assert {a.id: a for a in state.legal_actions(0)}["move:e1-d2"].label == "Move worker B from E1 to D2 (level 0 → 0)"
    assert move.path == ("c3", "d4")
    state.apply_action(0, "move:c3-d4")
    builds = {a.id: a for a in state.legal_actions(0)}
    assert builds["build:c3"].label == "Build on C3 (level 0 → 1)"
    assert builds["build:d3"].label == "Build a dome on D3"
    assert builds["build:d3"].path == ("d3",)
    assert ids(state) == sorted(ids(state))
    state.apply_action(0, "build:d3")
    assert level(state, "d3") == 4
    obs = state.observation(1).data
    assert obs["rows"][2][3]["dome"] is True and obs["last_action"] == "Build a dome on D3"
    assert obs["you"] == 1 and obs["to_move"] == 1 and obs["turn"] == 1


# --- moving ------------------------------------------------------------------
def test_move_up_at_most_one_level_down_any():
    state = position("""
    0. 0. 0. 0. 0.
    0. 2. 1. 0. 0.
    0. 0. 1A ## 0.
    0. 3. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    moves = {i for i in ids(state) if i.startswith("move:c3")}
    assert "move:c3-b4" in moves  # 1 -> 2 is one up
    assert "move:c3-c2" in moves  # down is fine
    assert "move:c3-d3" not in moves  # dome
    state2 = position("""
    0. 0. 0. 0. 0.
    0. 2. 1. 0. 0.
    0. 0. 0A 0. 0.
    0. 3. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    moves2 = set(ids(state2))
    assert "move:c3-b4" not in moves2  # 0 -> 2 is too high
    assert "move:c3-b2" not in moves2  # 0 -> 3 is too high
    assert "move:c3-c4" in moves2
    down = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 3A 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    assert "move:b3-b4" in ids(down)  # 3 -> 0


def test_cannot_move_onto_occupied_or_dome():
    state = position("""
    0. 0. 0. 0. 0.
    0. ## 0a 0. 0.
    0. 0b 0A 0B 0.
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    """)
    moves = set(ids(state))
    for blocked in ("c3-b4", "c3-c4", "c3-b3", "c3-d3"):
        assert f"move:{blocked}" not in moves
    assert "move:c3-d4" in moves and "move:c3-c2" in moves


# --- building ----------------------------------------------------------------
def test_build_only_adjacent_to_moved_worker():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 0. 0. 0. 0.
    0A 0b 0. 0. 0B
    """)
    state.apply_action(0, "move:a1-b2")
    assert state.current_seats() == [0] and state.phase == "build"
    builds = set(ids(state))
    # b2's neighbours minus the occupied a2 and b1.
    assert builds == {f"build:{c}" for c in ("a1", "a3", "b3", "c1", "c2", "c3")}
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "build:d1")  # next to the other worker only
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "move:e1-d1")  # no second move
    state.apply_action(0, "build:a1")
    assert level(state, "a1") == 1 and state.current_seats() == [1]


def test_dome_at_level_four_blocks_build_and_move():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0a 3. ## 0. 0.
    0A 0b 0. 0. 0B
    """)
    state.apply_action(0, "move:e1-d2")
    assert "build:c2" not in ids(state)
    state.apply_action(0, "build:d1")
    state.apply_action(1, "move:b1-c1")
    state.apply_action(1, "build:b2")  # 3 -> dome
    assert level(state, "b2") == 4
    assert all("b2" not in i for i in ids(state))


# --- winning and losing ------------------------------------------------------
def test_moving_up_onto_level_three_wins_without_build():
    state = position("""
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    0. 2A 3. 0. 0.
    0. 0. 0. 0. 0.
    0a 0b 0. 0. 0B
    """)
    state.apply_action(0, "move:b3-c3")
    assert state.is_terminal() and state.current_seats() == []
    assert state.scores() == [1.0, 0.0] and state.winner() == 0
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    data = state.observation(0).data
    assert data["phase"] == "over" and data["winner"] == 0 and data["turn"] == 1
    reason = "Player 1's worker A moved up from level 2 onto level 3 on C3."
    assert state.end_reason() == reason
    assert state.result_text() == data["result"] == f"Player 1 wins. {reason}"
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "build:b3")


def test_three_to_three_does_not_win_officially():
    state = position(THREE_TO_THREE)
    state.apply_action(0, "move:b3-c3")
    assert not state.is_terminal() and state.phase == "build"


def test_three_to_three_wins_with_win_on_any_level3():
    state = position(THREE_TO_THREE, win_on_any_level3=True)
    assert state.end_reason() is None
    state.apply_action(0, "move:b3-c3")
    assert state.is_terminal() and state.winner() == 0
    assert state.end_reason() == (
        "Player 1's worker A moved from level 3 onto level 3 on C3, which wins in this variant.")


def test_player_without_legal_move_loses():
    state = position("""
    0. 0. 0. 0. 0B
    0. 0. 0. 0. 0.
    0. 0. 0. 0. 0.
    2. 2. 2. 0. 0.
    0a 0b 1. 0A 0.
    """)
    assert not state.is_terminal()
    state.apply_action(0, "move:d1-d2")
    assert state.end_reason() is None
    state.apply_action(0, "build:c1")  # seat 1's last way out closes
    assert state.is_terminal() and state.winner() == 0
    assert state.observation(None).data["winner"] == 0
    reason = "Player 2 had no legal move: both workers were blocked in."
    assert state.end_reason() == reason and state.result_text() == f"Player 1 wins. {reason}"


def test_alternate_workers_forces_the_worker():
    state = position(STUCK_A.replace("0a", "0.").replace("0. 0. 0. 0. 0b", "0a 0. 0. 0. 0b"),
                     alternate_workers=True)
    assert {i.split(":")[1][:2] for i in ids(state)} == {"d1"}  # worker A only
    assert state.observation(0).data["required_worker"] == "A"
    state.apply_action(0, "move:d1-d2")
    state.apply_action(0, "build:d1")
    assert state.observation(1).data["required_worker"] == "A"
    state.apply_action(1, "move:a5-a4")
    state.apply_action(1, "build:a5")
    assert {i.split(":")[1][:2] for i in ids(state)} == {"e1"}  # now worker B
    assert "Only worker B" in state.observation(0).text


def test_alternate_workers_loses_when_forced_worker_is_stuck():
    for alternate, expect_over in ((False, False), (True, True)):
        state = position(STUCK_A, alternate_workers=alternate, win_on_any_level3=alternate)
        state.apply_action(0, "move:d1-d2")
        state.apply_action(0, "build:d1")
        # Seat 1's worker A (a2) is walled in; worker B (e5) could still move.
        assert state.is_terminal() is expect_over
        if expect_over:
            assert state.winner() == 0
            assert state.end_reason() == (
                "Player 2 had no legal move: worker a on A2, the one due to move this turn, was blocked in.")
        else:
            assert state.end_reason() is None


def test_stuck_right_after_setup_loses_in_alternate_mode_only():
    # Seat 0's worker A on a1 is boxed in by its own B and both of seat 1's workers.
    for alternate in (False, True):
        state = SantoriniGame({"alternate_workers": alternate}).new_initial_state(0)
        for seat, action in ((0, "place:a1"), (0, "place:b2"), (1, "place:a2"), (1, "place:b1")):
            state.apply_action(seat, action)
        assert state.is_terminal() is alternate
        if alternate:
            assert state.winner() == 1 and state.scores() == [0.0, 1.0]
            assert state.end_reason() == (
                "Player 1 had no legal move: worker A on A1, the one due to move this turn, was blocked in.")
        else:
            assert all(i.startswith("move:b2-") for i in ids(state))
