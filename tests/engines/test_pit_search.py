"""Pit's evaluation() (the estimate a depth-limited search reads at its leaves): a hand close to a corner is ahead, a
corner in hand nearly sure; points ahead count more as the hands and the road to the target run out; the Bull and
Bear cost their holders; GameBench's shared scores are shares of the points; seats permuted evaluate permuted; the
scores once over. Search-vs-random results are measured by tests/engines/search_eval_measure.py (not a test)."""

from __future__ import annotations

import random
import time

import pytest

from gameplay.engines.pit import PitGame
from tests.engines.pit_support import GAMEBENCH, state_with

MIXED = ["wheat"] * 3 + ["barley"] * 3 + ["corn"] * 3


def check_share(state):
    values = state.evaluation()
    assert len(values) == state.game.num_seats and all(0.0 <= v <= 1.0 for v in values)
    assert abs(sum(values) - 1.0) < 1e-9
    if not state.is_terminal():  # rotating the seats' hands and totals rotates the estimate
        rotated = state.clone()
        rotated.hands = state.hands[1:] + state.hands[:1]
        rotated.totals = state.totals[1:] + state.totals[:1]
        assert rotated.evaluation() == pytest.approx(values[1:] + values[:1])
    return values


def test_a_hand_close_to_a_corner_is_ahead_and_a_corner_in_hand_nearly_sure():
    even = check_share(state_with([MIXED, MIXED, MIXED]))
    assert even == pytest.approx([1 / 3] * 3)
    close = check_share(state_with([["wheat"] * 7 + ["corn"] * 2, ["barley"] * 5 + ["wheat"] * 2 + ["corn"] * 2,
                                    ["barley"] * 4 + ["corn"] * 5]))
    assert close[0] > 0.4 and close[0] > max(close[1:])
    cornered = check_share(state_with([["wheat"] * 9, ["barley"] * 5 + ["corn"] * 4,
                                       ["barley"] * 4 + ["corn"] * 5]))
    assert cornered[0] > 0.55 and cornered[0] > close[0]


def test_a_lead_in_points_counts_more_late_and_near_the_target():
    hands = [MIXED, MIXED, MIXED]
    early = state_with(hands)
    early.totals = [100, 0, 0]
    late = state_with(hands)
    late.totals = [100, 0, 0]
    late.hands_played = 9  # the last of 10 hands
    near = state_with(hands)
    near.totals = [460, 380, 0]  # one corner from the target of 500
    assert 1 / 3 < check_share(early)[0] < check_share(late)[0]
    assert check_share(late)[0] > 0.9
    assert check_share(near)[0] > 0.75


def test_the_bear_and_the_bull_cost_their_holders():
    hands = [["wheat"] * 5 + ["corn"] * 4, ["barley"] * 8 + ["wheat"], ["barley", "wheat", "wheat"] + ["corn"] * 5]
    options = {"bull_and_bear": True}
    plain = check_share(state_with([*hands[:2], hands[2] + ["corn"]], options))
    with_bear = check_share(state_with([*hands[:2], hands[2] + ["bear"]], options))
    assert with_bear[2] < plain[2]
    # Seat 1 holds eight Barley: with the Bull it has a corner to call; the Bull elsewhere costs its holder.
    bull_corner = check_share(state_with([hands[0], hands[1] + ["bull"], hands[2]], options))
    assert bull_corner[1] > 0.55
    bull_elsewhere = check_share(state_with([hands[0] + ["bull"], hands[1] + ["wheat"], hands[2]], options))
    no_bull = check_share(state_with([hands[0] + ["corn"], hands[1] + ["wheat"], hands[2]], options))
    assert bull_elsewhere[0] < no_bull[0]


def test_gamebench_shared_scores_are_shares_of_the_points():
    state = state_with([MIXED, MIXED, MIXED], GAMEBENCH)
    state.totals = [300, 100, 0]
    state.hands_played = 9
    values = check_share(state)
    assert values[0] > values[1] > values[2] and values[0] == pytest.approx(0.75, abs=0.05)


@pytest.mark.parametrize("options", [{}, {"bull_and_bear": True}, GAMEBENCH,
                                     {"gamebench_deck": True, "gamebench_corner_at_6": True}])
def test_random_positions_evaluate_to_shares_permuted_by_seat_and_end_on_the_scores(options):
    for seats in (3, 5):
        game = PitGame({**options, "max_hands": 2}, seats)  # random play rarely corners: two hands of 60 ticks
        state = game.new_initial_state(seats)
        rng = random.Random(seats)
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                values = check_share(state)
                assert values == game.state_from_json(state.to_json()).evaluation()
            step += 1
            seat = rng.choice(state.current_seats())
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        assert state.evaluation() == state.scores()


def test_an_evaluation_takes_well_under_100_microseconds():
    game = PitGame({"bull_and_bear": True}, 5)
    state = game.new_initial_state(0)
    rng = random.Random(0)
    states = []
    for _ in range(600):
        states.append(state.clone())
        seat = rng.choice(state.current_seats())
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    started = time.process_time()
    for state in states:
        state.evaluation()
    per_state = (time.process_time() - started) / len(states)
    assert per_state < 50e-6, f"{per_state * 1e6:.0f} us a position"
