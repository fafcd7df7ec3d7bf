"""Who is Spy options for seed 002's design (issue 40): the spy's seat and word fixed per match (spy_seat,
spy_word), a researcher's own word pairs as option data (word_pairs, checked with clear errors), and the defaults
dealing exactly what the engine dealt before these options existed (so stored matches replay unchanged)."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import InvalidOptionsError
from gameplay.engines.who_is_spy import SpyGame
from gameplay.engines.who_is_spy.words import word_pairs

from .conformance import check_playouts

SPYGAME_PAIRS = [["Spider-Man", "Batman"], ["Ice-Cream", "Sorbet"], ["High Heels", "Height-Increasing Shoes"]]


def deal_before_issue_40(seed: int, seats: int, spies: int = 1, pair_index: int = -1):
    """The deal as the engine drew it before spy_word and spy_seat existed (its first chance event, State.rng()'s
    first stream): the pair, then which word is the spy's, then the shuffle of the words over the seats."""
    rng = random.Random(f"{seed}:1")
    pairs = word_pairs()
    index = pair_index if pair_index >= 0 else rng.randrange(len(pairs))
    first, second = pairs[index]
    villager, spy = (first, second) if rng.random() < 0.5 else (second, first)
    dealt = [spy] * spies + [villager] * (seats - spies)
    rng.shuffle(dealt)
    return index, villager, spy, dealt


@pytest.mark.parametrize("seats,options", [(4, {}), (6, {"spies": 2}), (5, {"pair_index": 7}), (10, {"spies": 4})])
def test_the_defaults_deal_what_the_engine_always_dealt(seats, options):
    for seed in range(40):
        state = SpyGame(options, seats).new_initial_state(seed)
        want = deal_before_issue_40(seed, seats, options.get("spies", 1), options.get("pair_index", -1))
        assert (state.pair_index, state.villager_word, state.spy_word, state.words) == want


def test_spy_seat_and_spy_word_fix_the_guest_setting_in_every_match():
    """Seed 002 puts the guest on the spy's seat with a chosen word of the pair: fixed here, whatever the seed."""
    for seats in (4, 7, 10):
        for seed in range(30):
            seat, which = seed % seats, ("first", "second")[seed % 2]
            state = SpyGame({"pair_index": 3, "spy_seat": seat, "spy_word": which}, seats).new_initial_state(seed)
            first, second = word_pairs()[3]
            assert state.spy_word == (first if which == "first" else second)
            assert state.villager_word == (second if which == "first" else first)
            assert state.spies == [seat] and state.words.count(state.spy_word) == 1


def test_with_several_spies_the_fixed_seat_is_one_and_the_others_are_dealt_at_random():
    others = set()
    for seed in range(60):
        state = SpyGame({"spies": 2, "spy_seat": 4}, 6).new_initial_state(seed)
        assert 4 in state.spies and len(state.spies) == 2
        others |= set(state.spies) - {4}
    assert others == {0, 1, 2, 3, 5}


def test_fixing_an_option_to_what_chance_chose_changes_nothing_else():
    for seed in range(20):
        drawn = SpyGame({}, 5).new_initial_state(seed)
        which = "first" if drawn.spy_word == word_pairs()[drawn.pair_index][0] else "second"
        fixed = SpyGame({"pair_index": drawn.pair_index, "spy_word": which, "spy_seat": drawn.spies[0]},
                        5).new_initial_state(seed)
        assert fixed.words == drawn.words and fixed.rounds == drawn.rounds


def test_spy_seat_and_spy_word_are_declared_and_checked():
    spec = {o.name: o for o in SpyGame.spec.options}
    assert spec["spy_seat"].default == -1 and spec["spy_word"].default == "random"
    assert "seat" in spec["spy_seat"].description and "spy word" in spec["spy_word"].description
    with pytest.raises(InvalidOptionsError, match="spy_seat: seat 4 is not at this table of 4 players"):
        SpyGame({"spy_seat": 4}, 4)
    with pytest.raises(InvalidOptionsError, match="option spy_word must be one of"):
        SpyGame({"spy_word": "third"}, 4)


def test_a_researchers_pairs_are_played_as_given_from_a_list_or_json_text():
    for given in (SPYGAME_PAIRS, json.dumps(SPYGAME_PAIRS)):
        game = SpyGame({"word_pairs": given}, 4)
        assert json.loads(game.options["word_pairs"]) == SPYGAME_PAIRS  # stored as JSON text, replayable
        seen = {SpyGame({"word_pairs": given}, 4).new_initial_state(seed).pair_index for seed in range(40)}
        assert seen == {0, 1, 2}
    state = SpyGame({"word_pairs": SPYGAME_PAIRS, "pair_index": 2, "spy_word": "second"}, 4).new_initial_state(1)
    assert (state.villager_word, state.spy_word) == ("High Heels", "Height-Increasing Shoes")
    assert "Your secret word is Height-Increasing Shoes." in state.observation(state.spies[0]).text
    copy = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.words == state.words


@pytest.mark.parametrize("value,message", [
    ("[[\"a\", \"b\"", "not valid JSON \\(line 1, column 11\\)"),
    ("{\"a\": \"b\"}", "expected a non-empty list of pairs"),
    ("[]", "expected a non-empty list of pairs"),
    ([["cat", "dog"], ["cat"]], "pair 1 \\(\\[\"cat\"\\]\\): a pair is a list of exactly two words"),
    ([["cat", 7]], "pair 0 .*: each word must be text in quotes"),
    ([["cat", " ?! "]], "pair 0 .*: a word needs at least one letter or digit"),
    ([["Ice-Cream", "ice cream"]], "pair 0 .*: the two words are the same word"),
    ([["cat", "x" * 41]], "pair 0 .*: a word may have at most 40 characters"),
    ([["cat", "dog"]] * 1001, "1001 pairs; at most 1000 are allowed"),
])
def test_a_malformed_pair_list_is_refused_saying_what_and_where(value, message):
    with pytest.raises(InvalidOptionsError, match=f"option word_pairs: {message}"):
        SpyGame({"word_pairs": value}, 4)


def test_pair_index_counts_in_the_researchers_list():
    assert SpyGame({"word_pairs": SPYGAME_PAIRS, "pair_index": 1}, 4).new_initial_state(0).pair_index == 1
    with pytest.raises(InvalidOptionsError, match="pair_index: 3 is past the end of word_pairs \\(3 pair"):
        SpyGame({"word_pairs": SPYGAME_PAIRS, "pair_index": 3}, 4)


def test_games_with_every_new_option_conform():
    options = {"word_pairs": SPYGAME_PAIRS, "spy_word": "first", "spy_seat": 2, "seat_names": "first_name",
               "content_free": "0,3", "spy_guess": True}
    finals = check_playouts(lambda: SpyGame(options, 5), n_playouts=25, base_seed=4000)
    assert all(state.is_terminal() and state.spies == [2] for state in finals)
