"""Who is Spy's measure of seed 002's Round (issue 40): rounds a seat took part in, the round it went out in included
(rounds_played), next to the rounds it finished still in the game (rounds_survived); and a spy's guess compared as
the words are, letter case, punctuation, hyphens and spaces aside."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.who_is_spy import SpyGame
from gameplay.engines.who_is_spy.words import check_guess, guess_names


def new_state(seed=0, **options):
    return SpyGame({"pair_index": 0, **options}, 4).new_initial_state(seed)


def describe_round(state):
    while state.phase == "describe":
        seat = state.current_seats()[0]
        state.apply_action(seat, "describe", f"clue {len(state.log)}")


def vote(state, ballots):
    for voter, target in ballots.items():
        state.apply_action(voter, f"vote:{target}")


def roles(state):
    (spy,) = state.spies
    return spy, [s for s in range(4) if s != spy]


def test_a_spy_voted_out_in_round_1_played_1_round():
    state = new_state(seed=1)
    spy, (v1, v2, v3) = roles(state)
    describe_round(state)
    vote(state, {spy: v1, v1: spy, v2: spy, v3: spy})
    assert state.winners == "villagers"
    assert state.measures(spy)["rounds_played"] == 1 and state.measures(spy)["rounds_survived"] == 0
    assert all(state.measures(v)["rounds_played"] == 1 for v in (v1, v2, v3))


def test_a_spy_outlasting_two_villagers_played_2_rounds_and_one_out_in_round_2_also_2():
    state = new_state(seed=2)
    spy, (v1, v2, v3) = roles(state)
    describe_round(state)
    vote(state, {spy: v1, v1: v2, v2: v1, v3: v1})
    describe_round(state)
    vote(state, {spy: v2, v2: spy, v3: v2})
    assert state.winners == "spies"
    assert state.measures(spy)["rounds_played"] == 2 and state.measures(spy)["rounds_survived"] == 2
    assert [state.measures(v)["rounds_played"] for v in (v1, v2, v3)] == [1, 2, 2]

    lost = new_state(seed=2)
    describe_round(lost)
    vote(lost, {spy: v1, v1: v2, v2: v1, v3: v1})
    describe_round(lost)
    vote(lost, {spy: v2, v2: spy, v3: spy})
    assert lost.winners == "villagers"
    assert lost.measures(spy)["rounds_played"] == 2 and lost.measures(spy)["rounds_survived"] == 1


def test_tied_rounds_count_and_a_capped_game_counts_every_round():
    state = new_state(seed=3, max_rounds=2)
    spy, (v1, v2, v3) = roles(state)
    for _ in range(2):  # everyone tied with one vote each: nobody out, twice
        describe_round(state)
        vote(state, {spy: v1, v1: v2, v2: v3, v3: spy})
    assert state.ending == "cap"
    assert all(state.measures(s)["rounds_played"] == 2 == state.measures(s)["rounds_survived"] for s in range(4))


def test_rounds_played_is_declared_next_to_rounds_survived():
    spec = {m.name: m for m in SpyGame.spec.measures}
    assert "went out in" in spec["rounds_played"].description and "seed 002" in spec["rounds_played"].description
    assert "not counted" in spec["rounds_survived"].description


@pytest.mark.parametrize("guess", ["ice cream", "Ice-Cream", "ICE  CREAM!", " ice-cream. "])
def test_a_spy_naming_the_hyphenated_villagers_word_wins(guess):
    pairs = [["Ice-Cream", "Sorbet"]]
    state = SpyGame({"word_pairs": pairs, "spy_word": "second", "spy_seat": 0, "spy_guess": True},
                    4).new_initial_state(0)
    while state.current_seats() != [0]:
        seat = state.current_seats()[0]
        state.apply_action(seat, "describe", f"clue {seat}")
    labels = state.action_labels(0, "spy_guess", guess)
    assert "right: the spies win" in labels.public
    state.apply_action(0, "spy_guess", guess)
    assert state.is_terminal() and state.winners == "spies" and state.ending == "guess"


def test_naming_ones_own_word_is_refused_in_any_spelling_and_plain_words_compare_as_before():
    with pytest.raises(IllegalActionError, match="name the other word"):
        check_guess("spider man", "Spider-Man")
    assert check_guess("Cocoa!", "coffee") == "cocoa" and guess_names("cocoa", "cocoa")
    assert not guess_names("coco", "cocoa") and not guess_names("cocoa powder", "cocoa")
