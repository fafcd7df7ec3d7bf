"""Are You the Traitor?'s information-set sampler beyond the shared checks (tests/engines/information_sets.py, which
test_information_sets.py runs at 4 and 5 seats): the same checks where the eyes-closed steps show more (6, 8, 10
seats), with GameBench's fixed roles and in a long game whose deck runs out; a sample keeps exactly the characters
its seat knows and deals the rest uniformly; card facts stay true and samples keep them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gameplay.engines.are_you_the_traitor import TraitorGame
from gameplay.engines.are_you_the_traitor.deck import RING, treasure_deck
from gameplay.engines.are_you_the_traitor.knowledge import held_by
from tests.engines.evaluation_support import containers

from .information_sets import check_information_sets, check_sample

G, E = "good", "evil"
SAMPLES = 300


def state_with(characters, alignments, options=None, seed=0):
    state = TraitorGame(options or {}, len(characters)).new_initial_state(seed)
    state.characters, state.alignments, state.set_aside = list(characters), list(alignments), []
    return state


def samples(state, seat, count=SAMPLES):
    rng = random.Random(seat)
    return [state.sample_information_state(seat, rng) for _ in range(count)]


def assert_facts_hold(state):
    """Every card fact (each seat's and the public's) is true of the state's hands; the public's are within each
    seat's; the cards add up to the deck."""
    n = state.game.num_seats
    public = held_by(state.card_facts, n, n)
    for viewer in range(n + 1):
        for holder, cards in enumerate(held_by(state.card_facts, viewer, n)):
            assert not Counter(cards) - Counter(state.hands[holder]), (viewer, holder, cards)
            if viewer < n:
                assert holder != viewer or not cards
                assert holder == viewer or not Counter(public[holder]) - Counter(cards)
    assert sum((Counter(h) for h in state.hands), Counter(state.deck) + Counter(state.discard)) == \
        Counter(treasure_deck())


@pytest.mark.parametrize("seats,options", [
    pytest.param(6, {}, id="6"),
    pytest.param(8, {}, id="8"),
    pytest.param(10, {"ticks_before_handoff": 1}, id="10"),
    pytest.param(5, {"gamebench_fixed_roles": True}, id="5-fixed"),
    pytest.param(6, {"gamebench_fixed_roles": True, "ticks_before_handoff": 1}, id="6-fixed"),
])
def test_the_shared_checks_hold_where_seats_know_more(seats, options):
    assert check_information_sets(TraitorGame(options, seats), seed=seats, every=4, steps=100)


def ring_heavy_game(seed, seats, until):
    """A long random game that spends every Magic Ring it can, up to the first state ``until`` accepts."""
    game = TraitorGame({"ticks_before_handoff": 0, "target_points": 60, "max_rounds": 60}, seats)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal() and not until(state):
        seat = state.current_seats()[0]
        legal = [a.id for a in state.legal_actions(seat)]
        rings = [a for a in legal if a.startswith("ring:")]
        state.apply_action(seat, rng.choice(rings or legal))
        assert_facts_hold(state)
    return state


def test_card_facts_stay_true_through_thefts_and_reshuffles_and_samples_keep_them():
    for seed, seats in ((1, 4), (2, 7), (3, 10)):
        state = ring_heavy_game(seed, seats, until=lambda s: s.reshuffled and s.phase == "handoff")
        assert state.reshuffled and not state.is_terminal(), "the game never reshuffled its deck"
        n = state.game.num_seats
        for seat in range(n):
            facts = held_by(state.card_facts, seat, n)
            for sample in samples(state, seat, 20):
                assert_facts_hold(sample)
                assert sample.deck == [RING] * len(state.deck)  # a reshuffled deck is Magic Rings only
                assert sample.hands[seat] == state.hands[seat]
                for holder in range(n):
                    assert len(sample.hands[holder]) == len(state.hands[holder])
                    assert not Counter(facts[holder]) - Counter(sample.hands[holder])
        assert any([check_sample(state, seat, generators=2) for seat in range(n)])


def test_the_victim_of_a_magic_ring_knows_the_card_its_thief_holds():
    state = ring_heavy_game(5, 6, until=lambda s: s.last is not None and s.last["rings"])  # right after a theft
    thief, victim, card = state.last["rings"][0]
    assert card in held_by(state.card_facts, victim, 6)[thief]
    assert all(card in sample.hands[thief] for sample in samples(state, victim, 30))
    bystander = next(s for s in range(6) if s not in (thief, victim))
    drawn = {tuple(sample.hands[thief]) for sample in samples(state, bystander, 30)}
    assert len(drawn) > 1  # to anybody else the thief's hand is dealt anew


def test_a_guard_at_six_seats_keeps_the_keyholder_and_deals_the_traitor_uniformly():
    state = state_with(["wizard", "wizard", "keyholder", "guard", "guard", "traitor"], [G, E, None, None, None, None])
    traitors, good_first = Counter(), 0
    for sample in samples(state, 3):
        assert sample.characters[:4] == ["wizard", "wizard", "keyholder", "guard"]
        assert sorted(sample.characters[4:]) == ["guard", "traitor"]
        assert sorted(sample.alignments[:2]) == [E, G] and sample.set_aside == []
        traitors[sample.characters.index("traitor")] += 1
        good_first += sample.alignments[0] == G
    assert 120 < traitors[4] < 180 and 120 < good_first < 180  # each 1/2 of 300


def test_eight_seat_traitors_keep_each_other_and_the_keyholder():
    characters = ["wizard", "traitor", "guard", "keyholder", "guard", "traitor", "wizard", "guard"]
    state = state_with(characters, [G, None, None, None, None, None, E, None])
    for sample in samples(state, 1, 40):
        assert sample.characters == characters  # the guards are all that is left
        assert sorted(sample.alignments[0::6]) == [E, G]
    wizard_view = {tuple(s.characters) for s in samples(state, 0, 40)}
    assert len(wizard_view) > 1 and all(c[0::6] == ("wizard", "wizard") for c in wizard_view)


def test_a_good_wizard_at_ten_seats_deals_the_other_alignments_from_what_is_left():
    characters = ["wizard", "keyholder", "guard", "guard", "wizard", "traitor", "guard", "wizard", "traitor", "guard"]
    state = state_with(characters, [G, None, None, None, E, None, None, E, None, None])
    state.set_aside = [G]
    pairs = Counter()
    for sample in samples(state, 0):
        assert sample.alignments[0] == G
        pairs[sample.alignments[4], sample.alignments[7]] += 1
        assert sorted([*sample.alignments[4:8:3], *sample.set_aside]) == [E, E, G]
    assert set(pairs) == {(E, E), (E, G), (G, E)} and all(70 < count < 130 for count in pairs.values())


def test_the_key_hand_off_shows_everybody_the_keyholder():
    five = ["traitor", "wizard", "wizard", "keyholder", "guard"]
    talk = state_with(five, [None, E, G, None, None])
    assert len({s.characters.index("keyholder") for s in samples(talk, 1, 40)}) == 3  # seats 0, 3 and 4
    handoff = state_with(five, [None, E, G, None, None], {"ticks_before_handoff": 0})  # no talk: the hand-off
    assert {s.characters.index("keyholder") for s in samples(handoff, 1, 40)} == {3}


def test_fixed_roles_are_public_and_stay():
    state = TraitorGame({"gamebench_fixed_roles": True}, 5).new_initial_state(3)
    for sample in samples(state, 4, 20):
        assert sample.characters == state.characters and sample.alignments == state.alignments


def test_the_last_rounds_draws_and_thefts_the_seat_did_not_see_are_dealt_anew():
    state = ring_heavy_game(7, 6, until=lambda s: s.round_no == 3 and s.last["rings"] and s.phase == "handoff")
    thief, victim, card = state.last["rings"][0]
    seat = next(s for s in range(6) if s not in (thief, victim) and s not in [d[0] for d in state.last["draws"]])
    drawer = state.last["draws"][0][0]
    draws, thefts = set(), set()
    for sample in samples(state, seat, 40):
        draws.add(sample.last["draws"][0][1])
        thefts.add(sample.last["rings"][0][2])
        assert not sample.hands[drawer] or sample.last["draws"][0][1] in sample.hands[drawer]
    assert len(draws) > 1 and len(thefts) > 1
    for sample in samples(state, victim, 10):
        assert sample.last["rings"][0] == [thief, victim, card]  # its own theft stays as it saw it


def test_a_state_stored_before_card_facts_were_kept_loads_and_samples():
    state = ring_heavy_game(2, 5, until=lambda s: s.round_no == 3)
    data = state.to_json()
    del data["payload"]["card_facts"], data["payload"]["reshuffled"]
    old = state.game.state_from_json(data)
    assert old.card_facts == [] and old.reshuffled is False
    check_sample(old, 0)  # raises on a bad sample


def test_a_sample_shares_no_list_or_dict_with_its_state():
    state = ring_heavy_game(7, 6, until=lambda s: s.round_no == 3 and s.last["rings"] and s.phase == "handoff")
    for seat in range(state.game.num_seats):
        (sample,) = samples(state, seat, 1)
        ours = [getattr(sample, name) for name in sample.PAYLOAD_FIELDS]
        theirs = [getattr(state, name) for name in state.PAYLOAD_FIELDS]
        assert not containers(ours, set()) & containers(theirs, set())
