"""Santorini for search: the legal actions a state keeps between actions are never stale, and evaluation() (the
estimate a depth-limited search reads) favours the side that is winning."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.santorini import SantoriniGame
from tests.engines.evaluation_support import greedy
from tests.engines.santorini_support import position


def test_kept_legal_actions_match_a_state_rebuilt_from_json():
    for seed in range(6):
        game = SantoriniGame({"alternate_workers": seed % 2 == 1})
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            fresh = game.state_from_json(state.to_json())
            assert legal == fresh.legal_actions(seat)
            legal.clear()  # a caller's list is its own
            assert state.legal_actions(seat) == fresh.legal_actions(seat)
            state.apply_action(seat, rng.choice(fresh.legal_actions(seat)).id)


# --- evaluation() ----------------------------------------------------------------------------------------------------
def mirrored(state):
    """The same position with the seats' workers (and whose turn it is) swapped."""
    data = state.to_json()
    p = data["payload"]
    p["workers"] = p["workers"][::-1]
    p["turns_taken"] = p["turns_taken"][::-1]
    p["to_move"] = 1 - p["to_move"]
    return state.game.state_from_json(data)


def check_mirror(state):
    values = state.evaluation()
    assert all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-12
    assert mirrored(state).evaluation() == pytest.approx(values[::-1])
    return values


# Seat 0's worker A on level 2 next to a free level 3 (c3 -> d3); seat 1's workers on the ground far away.
THREAT = """
0. 0. 0. 0. 0a
0. 0. 0. 0. 0.
0. 2A 3. 0. 0.
0. 0. 0. 0. 0.
0B 0. 0. 0. 0b
"""
# Seat 0 two levels up and free to climb; seat 1 on the ground: no threat on either side.
HIGHER = """
0. 0. 0. 0. 0a
0. 1. 2. 0. 0.
0. 1A 2B 0. 0.
0. 0. 1. 0. 0.
0. 0. 0. 0. 0b
"""


def test_a_seat_to_move_with_a_winning_climb_is_almost_won_and_mirrored_almost_lost():
    state = position(THREAT, to_move=0)
    assert "move:b3-c3" in [a.id for a in state.legal_actions(0)]
    values = check_mirror(state)
    assert values[0] > 0.9
    assert mirrored(state).evaluation()[0] < 0.1


def test_higher_workers_evaluate_above_even_and_the_mirror_below():
    for to_move in (0, 1):
        state = position(HIGHER, to_move=to_move)
        values = check_mirror(state)
        assert 0.6 < values[0] < 0.97, values  # better, not yet won
        assert mirrored(state).evaluation()[0] < 0.4


def test_a_threat_the_build_cannot_dome_is_almost_lost_for_the_builder():
    # Seat 1 (a on d4, level 2) threatens e5 and e4 (level 3); seat 0 moved A to b1 and builds now: it can dome
    # neither, so seat 1 wins on its move.
    board = """
0. 0. 0. 0. 3.
0. 0. 0. 2a 3.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0B 0A 0. 0. 0b
"""
    state = position(board, to_move=0, phase="build", moved="b1")
    assert state.evaluation()[0] < 0.1
    # One threat only, next to the worker that builds: it can be domed, so the game is still open.
    board_one = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 2a 3. 0.
0B 0. 0. 0A 0b
"""
    blocked = position(board_one, to_move=0, phase="build", moved="d1")
    assert 0.1 < blocked.evaluation()[0] < 0.9


def test_evaluation_of_random_positions_is_a_share_and_symmetric():
    for seed in range(10):
        game = SantoriniGame({"alternate_workers": seed % 2 == 1, "win_on_any_level3": seed % 3 == 0})
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase != "place":
                check_mirror(state)
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        assert state.evaluation() == state.scores()


@pytest.mark.parametrize("options", [{}, {"alternate_workers": True, "win_on_any_level3": True}])
def test_one_ply_greedy_on_evaluation_beats_uniform_random(options):
    game = SantoriniGame(options)
    wins = 0
    for seed in range(50):
        me = seed % 2
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            action = greedy(state, seat, rng) if seat == me else rng.choice(state.legal_actions(seat)).id
            state.apply_action(seat, action)
        wins += state.winner() == me
    assert wins >= 45, f"greedy won {wins} of 50"
