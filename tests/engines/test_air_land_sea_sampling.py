"""Air, Land & Sea's information-set sampler (sampling.py): what a sample keeps, what it redraws and how evenly, on
known positions; and the information-set conformance under the GameBench options (the shared test plays defaults)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gameplay.engines.air_land_sea import AirLandSeaGame
from gameplay.engines.air_land_sea.cards import ALL_IDS
from gameplay.engines.api import HIDDEN_ACTION

from .air_land_sea_support import act, position
from .information_sets import check_sample, check_sampling_game

# Blue (0) holds A1 L2 and has A3 face down in Air and A2 face up in Sea; its A5, destroyed face down, lies at the
# bottom of the deck. Red (1) holds S4 (seen face up earlier, back in hand by Redeploy) and two cards Blue has not
# seen; it has S6 face down in Air, L4 face down in Land (seen face up before a flip) and S1 face up in Sea; its
# S5, destroyed face down, lies in the deck's seventh slot.
BLUE_KNOWS = {"A1", "L2", "A3", "A2", "A5", "S4", "L4", "S1"}
UNKNOWN_TO_BLUE = sorted(set(ALL_IDS) - BLUE_KNOWS)


def known_position():
    state = position(theaters="ALS", first=0, hands=(("A1", "L2"), ("A6", "S4", "L6")),
                     stacks={(0, 0): ["a3"], (0, 1): ["s6"], (1, 1): ["l4"], (2, 0): ["A2"], (2, 1): ["S1"]},
                     deck=["A4", "L1", "L3", "L5", "S2", "S3", "S5", "A5"])
    state.seen += ["L4", "S4"]
    state.buried = [["A5"], ["S5"]]
    return state


def places(state) -> dict:
    """Every card's place: ("hand", seat), ("stack", pos, seat, height) or ("deck", slot)."""
    where = {}
    for seat in (0, 1):
        for card in state.hands[seat]:
            where[card] = ("hand", seat)
        for pos in range(3):
            for height, card in enumerate(state.stacks[pos][seat]):
                where[card["id"]] = ("stack", pos, seat, height)
    for slot, card in enumerate(state.deck):
        where[card] = ("deck", slot)
    return where


def test_a_sample_keeps_every_card_the_seat_can_place_and_deals_the_others_to_the_unknown_places():
    state = known_position()
    truth = places(state)
    for g in range(50):
        sample = state.sample_information_state(0, random.Random(g))
        assert sorted(places(sample)) == sorted(ALL_IDS)
        where = places(sample)
        for card in BLUE_KNOWS:
            if card != "S4":
                assert where[card] == truth[card], card
        assert where["S4"] == ("hand", 1) and len(sample.hands[1]) == 3
        assert sample.hands[0] == ["A1", "L2"]
        assert sample.stacks[1][1] == [{"id": "L4", "up": False}]  # seen before its flip: still known
        assert sample.buried == [["A5"], [sample.deck[6]]]  # Red's destroyed card is whatever now fills its slot
        assert sample.deck[6] in UNKNOWN_TO_BLUE
    check_sample(state, 0)
    check_sample(state, 1)


def test_each_unknown_card_is_equally_likely_in_each_unknown_place():
    state = known_position()
    face_down, top, in_hand, slot_of_s4 = Counter(), Counter(), Counter(), Counter()
    draws = 3000
    for g in range(draws):
        sample = state.sample_information_state(0, random.Random(g))
        face_down[sample.stacks[0][1][0]["id"]] += 1
        top[sample.deck[0]] += 1
        in_hand.update(c for c in sample.hands[1] if c != "S4")
        slot_of_s4[sample.hands[1].index("S4")] += 1
    expected = draws / len(UNKNOWN_TO_BLUE)  # 300 each; a standard deviation is about 16
    for counts in (face_down, top):
        assert sorted(counts) == UNKNOWN_TO_BLUE
        assert all(abs(n - expected) < 80 for n in counts.values()), counts
    # Red's two unknown cards: each unknown card is one of them in a fifth of the samples (about 600, sd 22)
    assert sorted(in_hand) == UNKNOWN_TO_BLUE
    assert all(abs(n - 2 * expected) < 110 for n in in_hand.values()), in_hand
    assert all(abs(slot_of_s4[slot] - draws / 3) < 150 for slot in range(3)), slot_of_s4


def reinforcing(seat: int):
    """``seat`` has just deployed L1 Reinforce in Land and looks at the deck's top card."""
    state = position(theaters="ALS", first=seat, hands=(("A1", "L2"), ("A6", "S4")),
                     stacks={(1, seat): ["L1"]}, deck=None)
    state.decision = {"kind": "reinforce", "seat": seat, "card": "L1", "pos": 1, "owner": seat}
    return state


def test_the_reinforcing_seat_keeps_the_top_card_it_sees_and_the_other_seat_does_not():
    for seat in (0, 1):
        state = reinforcing(seat)
        top = state.deck[0]
        tops = {state.sample_information_state(seat, random.Random(g)).deck[0] for g in range(30)}
        assert tops == {top}
        tops = {state.sample_information_state(1 - seat, random.Random(g)).deck[0] for g in range(30)}
        assert len(tops) > 3
        check_sample(state, seat)
        check_sample(state, 1 - seat)


def test_an_own_card_destroyed_out_of_the_game_is_never_dealt_to_a_place_in_a_sample():
    # GameBench's destroyed cards vanish; Red's Containment destroys Blue's face-down A1. Blue knows it is gone.
    state = position(theaters="ALS", first=0, hands=(("A1", "L2"), ("A6", "S4")), stacks={(0, 1): ["A5"]},
                     gamebench_destroyed_vanish=True)
    act(state, "play:0:1:down")
    assert "A1" not in places(state)
    for g in range(40):
        sample = state.sample_information_state(0, random.Random(g))
        assert "A1" not in places(sample)
        assert len(places(sample)) == len(ALL_IDS) - 1
    check_sample(state, 0)
    check_sample(state, 1)


def test_the_log_hides_only_the_other_seats_face_down_plays():
    state = AirLandSeaGame().new_initial_state(11)
    rng = random.Random(11)
    while not {"up", "down"} <= {r.action_id.split(":")[-1] for r in state.log if r.seat == 1}:
        seat = state.current_seats()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    sample = state.sample_information_state(0, random.Random(1))
    assert len(sample.log) == len(state.log)
    for mine, theirs in zip(sample.log, state.log, strict=True):
        hidden = theirs.seat == 1 and theirs.action_id.startswith("play:") and theirs.action_id.endswith(":down")
        assert mine.seat == theirs.seat
        assert mine.action_id == (HIDDEN_ACTION if hidden else theirs.action_id)
    assert all(e["texts"][1] == e["public"] for e in sample.events)  # Red's own wording named its cards
    assert [e["texts"][0] for e in sample.events] == [e["texts"][0] for e in state.events]


@pytest.mark.parametrize("flag", ["gamebench_destroyed_vanish", "gamebench_reinforce_unchecked",
                                  "gamebench_disrupt_chooser"])
def test_samples_stay_in_the_information_set_under_the_gamebench_options(flag):
    check_sampling_game(lambda seed: AirLandSeaGame({flag: True, "alt_disrupt_opponent_first": seed % 2 == 1}),
                        seeds=range(2))
