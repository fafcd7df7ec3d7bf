"""Sea Battle's evaluation() (the estimate a depth-limited search reads on sampled states): the fleet with more ships
and hit points is ahead, the orders already given this turn count, the turn cap sharpens the estimate, mirrored
positions evaluate mirrored, and one-ply greedy play on it beats uniform random play."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.sea_battle import SeaBattleGame
from gameplay.engines.sea_battle.board import ORDER_IDS

from .sea_battle_support import position


def mirrored(state):
    """The same sea with the fleets swapped: every Red ship Blue and the other way round, orders following them."""
    rename = {"R": "B", "B": "R"}
    data = state.to_json()
    p = data["payload"]
    ships = [[rename[s[0][0]] + s[0][1:], 1 - s[1], *s[2:]] for s in p["ships"]]
    p["ships"] = sorted(ships, key=lambda s: (s[1], s[0]))
    p["orders"] = {rename[k[0]] + k[1:]: v for k, v in p["orders"].items()}
    return state.game.state_from_json(data)


def check_share(state):
    values = state.evaluation()
    assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-12
    assert mirrored(state).evaluation() == pytest.approx(values[::-1])
    return values


def give(state, orders: list[str]) -> None:
    """Orders given by the seat whose ships they are, in fleet order: "R1:stay_L"."""
    for entry in orders:
        ship_id, order = entry.split(":")
        seat = 0 if ship_id[0] == "R" else 1
        assert state.next_ship(seat).id == ship_id
        state.apply_action(seat, order)


# Ships far apart and out of each other's lines: only fleets and hit points differ.
APART = [("R1", 0, 4, 4, "N"), ("R2", 0, 4, 12, "N"), ("R3", 0, 4, 19, "N"), ("B1", 1, 19, 4, "N")]


def test_more_ships_afloat_is_clearly_ahead_and_the_mirror_behind():
    state = position(APART)
    values = check_share(state)
    assert values[0] > 0.9
    assert mirrored(state).evaluation()[0] < 0.1


def test_less_damage_is_ahead_with_fleets_equal():
    state = position([("R1", 0, 4, 4, "N", 2), ("B1", 1, 19, 4, "N", 8)])
    values = check_share(state)
    assert 0.5 < values[0] < 0.97, values  # better, not yet won
    even = position([("R1", 0, 4, 4, "N", 5), ("B1", 1, 19, 4, "N", 5)])
    assert check_share(even) == pytest.approx([0.5, 0.5])


def test_the_turn_cap_coming_closer_sharpens_the_same_lead():
    ships = [("R1", 0, 4, 4, "N", 2), ("B1", 1, 19, 4, "N", 4)]
    early = position(ships)
    late = position(ships)
    late.turn = 99
    assert 0.5 < early.evaluation()[0] < late.evaluation()[0]
    # The last turn, its orders given: the standing at the cap decides.
    last = position(ships)
    last.turn = 100
    give(last, ["R1:stay_L"])
    assert check_share(last)[0] > 0.95


def test_an_order_that_hits_an_enemy_evaluates_above_one_that_misses():
    # R1 faces North at (10, 10); B1 sits two cells West of it: port (L) hits it, starboard (R) fires into open sea.
    ships = [("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "S")]
    hit, miss = position(ships), position(ships)
    give(hit, ["R1:stay_L"])
    give(miss, ["R1:stay_R"])
    assert check_share(hit)[0] > check_share(miss)[0]


def test_an_order_into_rock_evaluates_below_staying():
    ships = [("R1", 0, 1, 10, "W"), ("B1", 1, 19, 4, "N")]
    rock, stay = position(ships), position(ships)
    give(rock, ["R1:forward_R"])
    give(stay, ["R1:stay_R"])
    assert check_share(rock)[0] < check_share(stay)[0]


def test_a_turn_that_sinks_the_last_enemy_is_nearly_won():
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "S", 8)])
    give(state, ["R1:stay_L"])  # B1 has no order yet: assumed to stay, it takes the ball and sinks
    assert check_share(state)[0] > 0.95


@pytest.mark.parametrize("options", [{}, {"gamebench_resolution": True, "turn_cap": 30}])
def test_evaluation_of_random_games_is_a_share_and_equals_the_scores_at_the_end(options):
    game = SeaBattleGame(options)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            values = state.evaluation()
            assert all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-12
            if not options:
                assert mirrored(state).evaluation() == pytest.approx(values[::-1])
            seat = rng.choice(state.current_seats())
            sample = state.sample_information_state(seat, rng)  # what the search evaluates: a function of it
            assert sample.evaluation() == sample.clone().evaluation()
            state.apply_action(seat, rng.choice(ORDER_IDS))
        assert state.evaluation() == state.scores()


def greedy(state, seat, rng):
    """The order whose result evaluates best for ``seat`` on a sample of its information set (the other fleet's
    orders this turn drawn, not read), ties broken at random."""
    sample = state.sample_information_state(seat, rng)
    best, choices = -1.0, []
    for order in ORDER_IDS:
        after = sample.clone()
        after.apply_action(seat, order)
        value = after.evaluation()[seat]
        if value > best + 1e-12:
            best, choices = value, [order]
        elif value > best - 1e-12:
            choices.append(order)
    return rng.choice(choices)


def test_one_ply_greedy_on_evaluation_beats_uniform_random():
    # A short battle keeps the test quick (it won all 20 seeded games at caps 20 and 40 when written).
    game = SeaBattleGame({"turn_cap": 20})
    wins = 0
    for seed in range(10):
        me = seed % 2
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = rng.choice(state.current_seats())
            order = greedy(state, seat, rng) if seat == me else rng.choice(ORDER_IDS)
            state.apply_action(seat, order)
        wins += state.winner() == me
    assert wins >= 9, f"greedy won {wins} of 10"
