"""Air, Land & Sea's evaluation() (the estimate a depth-limited search reads on sampled states): the seat ahead on the
board and in VP is ahead, mirrored positions evaluate mirrored, withdrawing from a lost battle is worth something,
the options (target VP, VP-share scores, the action cap) are respected, and one-ply greedy play on it beats uniform
random play."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.air_land_sea import AirLandSeaGame
from gameplay.engines.air_land_sea.evaluation import battle_chance
from tests.engines.evaluation_support import greedy as greedy_on

from .air_land_sea_support import act, position


def mirrored(state):
    """The same battle with the seats swapped: hands, sides of the board, VP and the Supreme Commander cards."""
    m = state.clone()
    m.hands = [list(state.hands[1]), list(state.hands[0])]
    m.stacks = [[[dict(c) for c in state.stacks[p][1]], [dict(c) for c in state.stacks[p][0]]] for p in range(3)]
    m.vp = state.vp[::-1]
    m.first = 1 - state.first
    m.turn_seat = 1 - state.turn_seat
    return m


def check_share(state):
    values = state.evaluation()
    assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-12
    assert mirrored(state).evaluation() == pytest.approx(values[::-1])
    return values


# Seat 0 strong in Air and Land, seat 1 only in Sea; two cards left in each hand.
AHEAD = {(0, 0): ["A6"], (1, 0): ["L5"], (2, 1): ["S4"], (1, 1): ["a3"]}


def test_holding_two_theaters_by_wide_margins_is_ahead_and_the_mirror_behind():
    state = position(hands=(["A2", "L1"], ["S1", "A1"]), stacks=AHEAD)
    assert 0.65 < battle_chance(state) < 0.95
    assert battle_chance(mirrored(state)) == pytest.approx(1.0 - battle_chance(state))
    values = check_share(state)
    assert 0.5 < values[0] < 0.8, values  # one battle of a race to 12 VP: ahead, the game still long
    assert mirrored(state).evaluation()[0] < 0.5
    # The same battle when it decides the game (both seats one battle from 12 VP) weighs more.
    state.vp = [8, 8]
    assert check_share(state)[0] > values[0] + 0.05


def test_the_empty_board_is_close_to_even():
    state = AirLandSeaGame().new_initial_state(3)
    assert check_share(state)[0] == pytest.approx(0.5, abs=0.1)


def test_a_vp_lead_between_battles_is_ahead_and_counts_less_toward_the_long_game():
    state = position(first=1)
    state.hands, state.between, state.vp = [[], []], True, [10, 0]
    values = check_share(state)
    assert values[0] > 0.8  # 2 VP to go against 12: any battle won (or withdrawn from by the other) ends it
    assert mirrored(state).evaluation()[0] < 0.2
    long_game = position(first=1, target_vp=18)
    long_game.hands, long_game.between, long_game.vp = [[], []], True, [10, 0]
    assert 0.5 < long_game.evaluation()[0] < values[0]


def test_withdrawing_from_a_lost_battle_evaluates_above_staying_and_from_a_won_one_below():
    lost = position(hands=(["A1"], ["S1"]), stacks={(0, 1): ["A6"], (1, 1): ["L6"], (2, 1): ["S6"]})
    staying = lost.evaluation()[0]
    act(lost, "withdraw")
    assert lost.between and lost.vp == [0, 4]
    assert lost.evaluation()[0] > staying
    won = position(hands=(["A1"], ["S1"]), stacks={(0, 0): ["A6"], (1, 0): ["L6"], (2, 0): ["S6"]})
    staying = won.evaluation()[0]
    act(won, "withdraw")
    assert won.evaluation()[0] < staying < 0.99


def test_vp_share_scores_value_the_same_lead_as_a_share_of_the_points():
    def lead(**options):
        state = position(first=1, **options)
        state.hands, state.between, state.vp = [[], []], True, [6, 0]
        return check_share(state)[0]

    winner_takes_all, share = lead(), lead(gamebench_vp_share_scores=True)
    assert 0.5 < share < winner_takes_all


def test_the_action_cap_coming_before_the_battle_ends_leaves_the_vp_as_they_stand():
    state = position(hands=(["A1", "L2"], ["S1", "A3"]), stacks={(0, 1): ["A6"]}, action_cap=3)
    state.vp = [3, 0]
    assert check_share(state) == [1.0, 0.0]


OPTION_SETS = [
    {},
    {"target_vp": 18, "alt_disrupt_opponent_first": True},
    {"gamebench_disrupt_chooser": True, "gamebench_reinforce_unchecked": True, "gamebench_destroyed_vanish": True,
     "gamebench_rotation": True, "gamebench_vp_share_scores": True},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_evaluation_of_random_games_is_a_share_and_equals_the_scores_at_the_end(options):
    game = AirLandSeaGame(options)
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            sample = state.sample_information_state(seat, rng)  # what the search evaluates: a function of it
            values = sample.evaluation()
            assert all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-12
            assert values == sample.clone().evaluation()
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        assert state.evaluation() == state.scores()


def greedy(state, seat, rng):
    """The greedy action on a sample of the seat's information set (the other hand and the deck drawn, not read)."""
    return greedy_on(state.sample_information_state(seat, rng), seat, rng)


def test_one_ply_greedy_on_evaluation_beats_uniform_random():
    game = AirLandSeaGame()
    wins = 0
    for seed in range(GREEDY_GAMES):
        me = seed % 2
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            action = greedy(state, seat, rng) if seat == me else rng.choice(state.legal_actions(seat)).id
            state.apply_action(seat, action)
        wins += state.scores()[me] == 1.0
    assert wins >= GREEDY_WINS, f"greedy won {wins} of {GREEDY_GAMES}"


GREEDY_GAMES, GREEDY_WINS = 12, 11  # it won 40 of 40 seeded games when written
