"""Arctic Scavengers' evaluation() (the estimate a depth-limited search reads at its leaves): a tribe with more people
is ahead, more so late than early; this round's skirmish goes to the stronger fighters; food for a hire still to
come and Refugees being trashed count; seat-swapped positions evaluate swapped; the scores once over. Search-vs-random
results are measured by tests/engines/search_eval_measure.py (minutes, not a test)."""

from __future__ import annotations

import random
import time

import pytest

from gameplay.engines.arctic_scavengers import ArcticGame
from tests.engines.arctic_support import act, new_state, pass_round, set_hand, to_skirmish_round

PER_SEAT = ("decks", "discards", "hands", "kept", "skirmishes_won", "held_known", "junk_known", "last_public")


def swapped(state):
    """The same two-tribe position with the tribes' cards swapped, and the Initiator with them (so the tribe to act
    swaps too, keeping its step in progress)."""
    other = state.clone()
    for name in PER_SEAT:
        setattr(other, name, list(getattr(state, name))[::-1])
    other.initiator = 1 - state.initiator
    return other


def check_share(state):
    values = state.evaluation()
    assert len(values) == state.game.num_seats and all(0.0 <= v <= 1.0 for v in values)
    assert abs(sum(values) - 1.0) < 1e-9
    if state.game.num_seats == 2 and not state.is_terminal():
        assert swapped(state).evaluation() == pytest.approx(values[::-1])
    return values


def at_round(target: int, **options):
    state = new_state(**options)
    while state.round < target:
        pass_round(state)
    return state


def test_a_tribe_with_more_people_late_is_ahead_and_the_swap_behind():
    state = at_round(14)
    state.discards[0] += ["tribe_family_5", "tribe_family_4"]
    values = check_share(state)
    assert values[0] > 0.8
    assert swapped(state).evaluation()[0] < 0.2


def test_the_same_lead_is_worth_more_late_than_early():
    early, late = new_state(), at_round(15)
    for state in (early, late):
        state.discards[0].append("tribe_family_3")
    assert 0.5 < check_share(early)[0] < check_share(late)[0]


def test_this_rounds_prize_goes_to_the_stronger_fighters():
    def committing(hand):
        state = new_state()
        to_skirmish_round(state)
        state.contested[0] = "tribe_family_5"
        first, second = state.order()
        set_hand(state, first, ["brawler", "spear"])  # FIGHT 4
        act(state, "end_turn", "keep")
        set_hand(state, second, hand)
        act(state, "end_turn")
        assert state.step == {"mode": "commit"} and state.acting_seat() == second
        return state, second

    strong, seat = committing(["thugs", "brawler", "pickaxe"])  # FIGHT 7
    weak, _ = committing(["refugee", "refugee", "scavenger"])  # FIGHT 1
    assert check_share(strong)[seat] > 0.5 > check_share(weak)[seat]
    assert strong.evaluation()[seat] - weak.evaluation()[seat] > 0.2


def test_food_for_a_hire_still_to_come_counts_and_trashing_refugees_costs_people():
    state = at_round(5)
    seat = state.acting_seat()
    before = check_share(state)[seat]
    fed = state.clone()
    fed.food = 2  # a Brawler's worth, HIRE not yet used
    assert check_share(fed)[seat] > before
    set_hand(state, seat, ["refugee", "refugee", "junk"])
    act(state, "trash", "trash:refugee", "trash:refugee")
    assert check_share(state)[seat] < before


@pytest.mark.parametrize("options", [{}, {"gamebench_rounds": True, "gamebench_fight_sum": True},
                                     {"contested_count": 3, "tiebreak_skirmishes": True}])
@pytest.mark.parametrize("seats", [2, 4])
def test_random_positions_evaluate_to_shares_swapped_by_seat_and_end_on_the_scores(options, seats):
    game = ArcticGame(options, seats)
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            values = check_share(state)
            if step % 5 == 0:  # a function of the state alone: its copies evaluate the same
                assert values == state.clone().evaluation() == game.state_from_json(state.to_json()).evaluation()
            step += 1
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        assert state.evaluation() == state.scores()


def test_an_evaluation_takes_well_under_100_microseconds():
    game = ArcticGame({}, 2)
    states = []
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            states.append(state.clone())
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    started = time.process_time()
    for state in states:
        state.evaluation()
    per_state = (time.process_time() - started) / len(states)
    assert per_state < 100e-6, f"{per_state * 1e6:.0f} us a position"
