"""Sea Battle's information-set sampler: the other fleet's orders given this turn are drawn anew (and hidden in the
log), everything else is kept; damage too, because the public reports add up to it. Also the information-set
conformance under GameBench's resolution (the shared test plays the defaults)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gameplay.engines.api import HIDDEN_ACTION
from gameplay.engines.sea_battle import SeaBattleGame
from gameplay.engines.sea_battle.board import ORDER_IDS

from .information_sets import check_sample, check_sampling_game


def mid_turn():
    """Turn 2 of a seeded game: Red has ordered R1 and R2, Blue B1 (orders given in that interleaving)."""
    state = SeaBattleGame().new_initial_state(4)
    for seat in (0, 0, 0, 1, 1, 1):  # turn 1, resolved: every order is public in its report
        state.apply_action(seat, "stay_L")
    state.apply_action(0, "forward_R")
    state.apply_action(1, "left_L")
    state.apply_action(0, "right_L")
    assert state.turn == 2 and list(state.orders) == ["R1", "B1", "R2"]
    return state


@pytest.mark.parametrize("seat", [0, 1])
def test_a_sample_redraws_only_the_other_fleets_orders_of_this_turn(seat):
    state = mid_turn()
    theirs = [ship.id for ship in state.fleet(1 - seat) if ship.id in state.orders]
    drawn = Counter()
    for g in range(400):
        sample = state.sample_information_state(seat, random.Random(g))
        assert list(sample.orders) == list(state.orders)  # the other fleet is still committed, in order
        for ship_id, order in sample.orders.items():
            if ship_id in theirs:
                drawn[order] += 1
            else:
                assert order == state.orders[ship_id]
        assert [s.to_json() for s in sample.ships] == [s.to_json() for s in state.ships]
        assert sample.report == state.report and sample.rocks == state.rocks
    assert sorted(drawn) == sorted(ORDER_IDS)  # every order is legal to every ship: about 50 (or 100) each
    assert all(abs(n - 400 * len(theirs) / 8) < 45 * len(theirs) for n in drawn.values()), drawn
    check_sample(state, seat)


def test_the_log_hides_the_other_fleets_orders_of_this_turn_only():
    state = mid_turn()
    sample = state.sample_information_state(1, random.Random(0))
    assert [(r.seat, r.action_id) for r in sample.log] == [
        *[(r.seat, r.action_id) for r in state.log[:6]],  # turn 1: resolved, public
        (0, HIDDEN_ACTION), (1, "left_L"), (0, HIDDEN_ACTION)]


def test_a_sample_whose_other_fleet_is_ready_resolves_the_turn_with_its_drawn_orders():
    state = SeaBattleGame().new_initial_state(9)
    for _ in range(3):
        state.apply_action(1, "forward_L")
    sample = state.sample_information_state(0, random.Random(5))
    assert sample.observation(0).data["fleet_ready"] == [False, True]
    drawn = [[ship_id, order] for ship_id, order in sample.orders.items()]
    for _ in range(3):
        sample.apply_action(0, "stay_R")
    assert sample.turn == 2 and [o for o in sample.report["orders"] if o[0].startswith("B")] == drawn


@pytest.mark.parametrize("gamebench", [False, True])
def test_a_seat_that_read_every_report_knows_every_ships_damage(gamebench):
    """Why a sample keeps the other fleet's damage: every rock, ram and hit is in the turn's public report."""
    state = SeaBattleGame({"gamebench_resolution": gamebench, "turn_cap": 200}).new_initial_state(2)
    rng = random.Random(2)
    tally: Counter = Counter()
    turn = state.turn
    while not state.is_terminal():
        seat = rng.choice(state.current_seats())
        state.apply_action(seat, rng.choice(ORDER_IDS))
        if state.turn != turn or state.is_terminal():
            turn = state.turn
            report = state.report
            tally.update(ship_id for ship_id, kind in report["bumps"] if kind in ("rock", "ram"))
            for _ship, _a, _b, hit in report["shots"]:
                if hit:
                    tally[hit] += 2
            assert {s.id: s.damage for s in state.ships} == {s.id: tally[s.id] for s in state.ships}
    assert sum(tally.values()) > 10


def test_samples_stay_in_the_information_set_under_gamebench_resolution():
    check_sampling_game(lambda seed: SeaBattleGame({"gamebench_resolution": True}), seeds=range(2))
