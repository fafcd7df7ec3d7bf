"""Are You the Traitor?: the fact sheet's test facts (test_factN_...), from the deal to the 10-point target."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.are_you_the_traitor import TraitorGame
from gameplay.engines.are_you_the_traitor.deck import card_words, points

from .conformance import check_observation_leaks
from .traitor_support import FIVE, E, G, finish_ring_step, ids, state_with, views

# --- the fact sheet's test facts --------------------------------------------------------------------------------


def test_fact1_five_seats_deal_two_wizards_keyholder_guard_traitor_and_both_alignments():
    for seed in range(10):
        state = TraitorGame({}, 5).new_initial_state(seed)
        assert sorted(state.characters) == ["guard", "keyholder", "traitor", "wizard", "wizard"]
        assert sorted(a for a in state.alignments if a) == [E, G]
        assert all((a is not None) == (c == "wizard") for c, a in zip(state.characters, state.alignments, strict=True))
        assert state.set_aside == []


def test_fact2_four_seats_have_one_wizard_whose_alignment_only_it_knows():
    seen = set()
    for seed in range(12):
        state = TraitorGame({}, 4).new_initial_state(seed)
        assert sorted(state.characters) == ["guard", "keyholder", "traitor", "wizard"]
        wizard = state.characters.index("wizard")
        alignment = state.alignments[wizard]
        seen.add(alignment)
        assert state.set_aside == [E if alignment == G else G]  # the other card stays unseen
        word = "Good" if alignment == G else "Evil"
        sentence = f"your secret alignment is {word}"
        dumps = views(state)
        assert sentence in dumps[wizard]
        assert all(sentence not in dumps[s] for s in dumps if s != wizard)
        assert all("alignment is" not in dumps[s] for s in dumps if s != wizard)
    assert seen == {G, E}


@pytest.mark.parametrize("seats", [6, 7, 8, 9, 10])
def test_fact3_from_six_seats_guards_and_traitors_see_the_keyholder_wizards_do_not(seats):
    state = TraitorGame({}, seats).new_initial_state(seats)
    keyholder = state.keyholder()
    fact = f"Player {keyholder + 1} is the Keyholder"
    for seat, character in enumerate(state.characters):
        text = state.observation(seat).text
        if character in ("guard", "traitor", "keyholder"):
            assert fact in text
        else:
            assert fact not in text and "Keyholder" not in text.split("What you know this round:")[1].split("\n")[0]
    assert fact not in state.observation(None).text
    small = TraitorGame({}, 5).new_initial_state(1)
    fact = f"Player {small.keyholder() + 1} is the Keyholder"
    assert [s for s in range(5) if fact in small.observation(s).text] == [small.keyholder()]


def test_fact4_eight_seat_traitors_know_each_other_seven_seat_traitor_has_no_partner():
    state = TraitorGame({}, 8).new_initial_state(4)
    traitors = [s for s, c in enumerate(state.characters) if c == "traitor"]
    assert len(traitors) == 2
    for seat in traitors:
        other = traitors[1] if seat == traitors[0] else traitors[0]
        assert f"Player {other + 1} is a Traitor" in state.observation(seat).text
    for seat in range(8):
        if seat not in traitors:
            assert all(f"Player {t + 1} is a Traitor" not in state.observation(seat).text for t in traitors)
    seven = TraitorGame({}, 7).new_initial_state(4)
    assert seven.characters.count("traitor") == 1
    for seat in range(7):
        assert seven.observation(seat).text.count(" is a Traitor") == (1 if seven.characters[seat] == "traitor" else 0)


def test_fact5_stop_is_never_a_traitors_action():
    state = state_with(*FIVE, actor=0)
    assert ids(state, 0) == ["pass"] and [t.id for t in state.text_actions(0)] == ["say"]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "stop:3")
    for seed in range(20):  # whatever the deal and whoever talks first
        random_state = TraitorGame({}, 8).new_initial_state(seed)
        for _ in range(8):
            seat = random_state.current_seats()[0]
            if random_state.characters[seat] == "traitor":
                assert not [a for a in ids(random_state, seat) if a.startswith("stop")]
            random_state.apply_action(seat, "pass")


def test_fact6_guard_catching_a_traitor_gives_each_good_player_exactly_one_card():
    state = state_with(*FIVE, actor=4)
    state.apply_action(4, "stop:0")
    assert state.last["team"] == G
    assert [len(h) for h in state.hands] == [0, 0, 1, 1, 1]
    assert state.rounds_won == [0, 0, 1, 1, 1]


def test_fact7_evil_wizard_stopping_a_guard_makes_good_win():
    state = state_with(*FIVE, actor=1)
    state.apply_action(1, "stop:4")
    assert state.last["team"] == G and [len(h) for h in state.hands] == [0, 0, 1, 1, 1]
    grab = state_with(*FIVE, actor=1)
    grab.apply_action(1, "stop:3")
    assert grab.last["team"] == E and [len(h) for h in grab.hands] == [1, 1, 0, 0, 0]


def test_fact8_keyholder_handing_the_key_to_the_evil_wizard_makes_evil_win():
    state = state_with(*FIVE, actor=3)
    labels = state.action_labels(3, "stop:1")
    state.apply_action(3, "stop:1")
    assert state.last["team"] == E and [len(h) for h in state.hands] == [1, 1, 0, 0, 0]
    assert labels.by_seat[3] == "You hand the Key to Player 2." and labels.public == "Player 4 calls Stop on Player 2."
    good = state_with(*FIVE, actor=3)
    good.apply_action(3, "stop:2")
    assert good.last["team"] == G


def test_fact9_the_first_stop_ends_the_round_and_the_rest_of_the_tick_is_dropped():
    state = state_with(*FIVE, actor=0)
    state.apply_action(0, "say", "I am a Guard, honestly.")
    state.apply_action(1, "pass")
    state.apply_action(2, "stop:0")  # Good Wizard catches the Traitor mid-tick
    assert state.phase == "ring" and state.ring_order == [2, 3, 4, 0, 1]  # the Ring step counts from the caller
    assert state.current_seats() == [2, 3, 4, 0, 1]  # ... and asks everyone at once
    with pytest.raises(IllegalActionError):
        state.apply_action(3, "pass")  # Player 4's talk turn of that tick never comes
    finish_ring_step(state)
    assert state.round_no == 2 and state.tick == 1 and state.talk == []
    assert state.current_seats() == [1]  # the next round's talk starts one seat further on
    assert "Round 1: Player 3 called Stop on Player 1. Good won the round." in state.observation(None).text


def test_fact10_treasure_values_are_absent_from_every_other_seats_view():
    for seed in range(6):
        rng = random.Random(seed)
        state = TraitorGame({}, 6).new_initial_state(seed)
        while not state.is_terminal():
            dumps = views(state)
            for seat, hand in enumerate(state.hands):
                if not hand:
                    continue
                sentence = state.hand_sentence(seat)
                assert sentence in dumps[seat]
                for other, dump in dumps.items():
                    if other is None or other != seat and state.hand_sentence(other) != sentence:
                        assert sentence not in dump
                for other in range(state.game.num_seats):  # each seat's data lists its own cards and points only
                    data = state.observation(other).data
                    assert data["treasure"] == [card_words(c) for c in state.hands[other]]
                    assert data["points"] == points(state.hands[other])
                assert "treasure" not in state.observation(None).data and "points" not in state.observation(None).data
            check_observation_leaks(state)
            seat = state.current_seats()[0]
            state.apply_action(seat, rng.choice(ids(state, seat)))


def test_fact11_no_end_while_every_total_is_at_most_nine():
    state = state_with(*FIVE, actor=4)
    state.hands = [["crown_jewels", "platinum_pyramid"], [], ["crown_jewels", "platinum_pyramid"], [], []]
    state.deck = [c for c in state.deck if c not in ("gilded_statue", "crown_jewels")] + ["gilded_statue"] * 3
    state.apply_action(4, "stop:0")  # Good wins: Players 3, 4, 5 each draw a Gilded Statue (0 points)
    finish_ring_step(state)
    assert max(state.totals()) == 9 and not state.is_terminal() and state.round_no == 2
    state.characters, state.alignments = list(FIVE[0]), list(FIVE[1])
    state.deck.append("chest_of_copper")  # the next card drawn (by the caller's side, starting with Player 3)
    seat = state.current_seats()[0]
    while state.characters[seat] != "guard":
        state.apply_action(seat, "pass")
        seat = state.current_seats()[0]
    state.apply_action(seat, "stop:0")
    finish_ring_step(state)
    assert state.is_terminal() and state.totals()[2] >= 10 and state.ending == "target"
    assert state.scores()[2] == 1.0
