"""Pit's information-set sampler (gameplay/engines/pit/sampling.py): what a seat saw in its trades stays true in its
samples, standing offers can be taken in them, the log hides only what the seat never read, and the per-seat bounds
(knowledge.py) hold over random play. The shared conformance of samplers is tests/engines/test_information_sets.py."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import HIDDEN_ACTION
from gameplay.engines.pit import PitGame, sampling
from gameplay.engines.pit.cards import size

from .information_sets import check_sample, play_on
from .pit_support import GAMEBENCH, state_with


def samples(state, seat, count=40):
    return [state.sample_information_state(seat, random.Random(i)) for i in range(count)]


def traded_state():
    """Seat 0 gave 3 Corn to seat 1 for 3 Barley; seat 2 only read 'traded 3 cards'."""
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3])
    state.apply_action(0, "offer:3:corn")
    state.apply_action(1, "accept:0:3:barley")
    return state


def test_cards_a_seat_gave_stay_in_the_takers_hand_until_traded_on():
    state = traded_state()
    assert all(s.hands[1].get("corn", 0) >= 3 for s in samples(state, 0))
    assert len({json.dumps(s.hands[1], sort_keys=True) for s in samples(state, 0)}) > 1  # the rest is drawn
    # Seat 2 saw only counts: in its samples seat 1 need not hold that Corn.
    assert any(s.hands[1].get("corn", 0) < 3 for s in samples(state, 2))
    for seat in range(3):
        check_sample(state, seat)
    # Seat 1 passes the Corn on to seat 2 (seat 0 reads only counts): seat 0 knows no longer where it is.
    state.apply_action(2, "pass")
    state.apply_action(1, "offer:3:corn")
    state.apply_action(2, "accept:1:3:wheat")
    assert state.known[0][1] == {} and state.known[2][1] == {"wheat": 3}
    assert any(s.hands[1].get("corn", 0) < 3 for s in samples(state, 0, 200))  # 9 Corn among 18 unseen cards


def test_the_log_hides_only_cards_the_seat_never_read():
    state = traded_state()
    shown = {seat: [r.action_id for r in state.sample_information_state(seat, random.Random(1)).log]
             for seat in range(3)}
    assert shown[0] == ["offer:3:corn", "accept:0:3:barley"]  # its offer, and the answer it got
    assert shown[1] == ["offer:3:corn", "accept:0:3:barley"]  # it took that offer, so it read its cards
    assert shown[2] == [HIDDEN_ACTION, HIDDEN_ACTION]
    public = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 9, ["corn"] * 6 + ["wheat"] * 3],
                        {"gamebench_public_commodities": True})
    public.apply_action(0, "offer:3:corn")
    assert [r.action_id for r in public.sample_information_state(2, random.Random(1)).log] == ["offer:3:corn"]


@pytest.mark.parametrize("tries", [sampling.TRIES, 0])
def test_a_standing_offer_is_in_its_sampled_hand_and_can_be_taken(tries, monkeypatch):
    monkeypatch.setattr(sampling, "TRIES", tries)  # 0: the offers are placed before the deal, every time
    state = state_with([["wheat"] * 6 + ["corn"] * 3, ["barley"] * 5 + ["rye"] * 4, ["corn"] * 6 + ["wheat"] * 3,
                        ["rye"] * 5 + ["barley"] * 4], seed=1)
    state.apply_action(1, "offer:4:barley")
    state.apply_action(3, "offer:4:rye")
    for sample in samples(state, 0, 20):
        for seat in (1, 3):
            offer = sample.offers[seat]
            assert size(offer) == 4 and all(sample.hands[seat].get(c, 0) >= n for c, n in offer.items())
        answer = next(a.id for a in sample.legal_actions(0) if a.id.startswith("accept:1:4:"))
        sample.apply_action(0, answer)  # the cards really are there
    check_sample(state, 0)


@pytest.mark.parametrize("seats,options", [(5, {}), (4, GAMEBENCH), (3, {"gamebench_unequal_trades": True,
                                                                        "bull_and_bear": True})])
def test_bounds_hold_and_samples_keep_them_over_random_play(seats, options):
    game = PitGame({"tick_cap": 12, "max_hands": 3, **options}, seats)
    deck = None
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        deck = sum(size(h) for h in state.hands)
        for step in range(game.max_actions()):
            if state.is_terminal():
                break
            seat = rng.choice(state.current_seats())
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
            for observer, row in enumerate(state.known):  # each bound is true of the real hands
                for holder, bound in enumerate(row):
                    assert all(state.hands[holder].get(c, 0) >= n for c, n in bound.items()), (observer, holder)
            if step % 9:
                continue
            observer = step % seats
            before = json.dumps(state.to_json())
            play_on(state.sample_information_state(observer, random.Random(step)), random.Random(step), limit=20)
            assert json.dumps(state.to_json()) == before  # a sample shares nothing with its state
            sample = state.sample_information_state(observer, random.Random(step))
            assert sum(size(h) for h in sample.hands) == deck
            for holder in range(seats):
                assert size(sample.hands[holder]) == size(state.hands[holder])
                assert all(sample.hands[holder].get(c, 0) >= n for c, n in state.known[observer][holder].items())
                offer = sample.offers[holder]
                assert (offer is None) == (state.offers[holder] is None)
                assert offer is None or all(sample.hands[holder].get(c, 0) >= n for c, n in offer.items())


def test_a_state_stored_before_the_bounds_were_kept_still_loads():
    state = traded_state()
    data = json.loads(json.dumps(state.to_json()))
    del data["payload"]["known"]
    restored = state.game.state_from_json(data)
    assert restored.known == [[{}] * 3] * 3
    check_sample(restored, 0)
