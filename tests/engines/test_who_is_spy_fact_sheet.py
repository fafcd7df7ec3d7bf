"""Who is Spy, the fact sheet's test facts (test_factN_...): the deal (one spy word and three villager words, chance
drawing the pair, the spy's side and the seats), no observation carrying another seat's word before the end, a
description with the own word refused in any case, no vote for oneself, who goes out on a plain majority and who
wins then, and a speaking order reshuffled every round and reproducible. Facts 8 and 10 (run-offs and the round cap)
are with the other ties in test_who_is_spy_ties.py."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.who_is_spy import SpyGame
from gameplay.engines.who_is_spy.words import word_pairs

from .who_is_spy_support import describe_round, new_state, obs_json, play_random, spy_and_villagers, vote


def test_fact1_four_players_one_spy_word_and_three_villager_words():
    pairs = set(word_pairs())
    for seed in range(40):
        state = SpyGame({}, 4).new_initial_state(seed)
        assert state.villager_word != state.spy_word
        assert (state.villager_word, state.spy_word) in pairs or (state.spy_word, state.villager_word) in pairs
        assert state.words.count(state.spy_word) == 1 and state.words.count(state.villager_word) == 3
        assert state.spies == [state.words.index(state.spy_word)]


def test_fact1_chance_draws_the_pair_the_spy_side_and_the_seats():
    states = [SpyGame({}, 4).new_initial_state(seed) for seed in range(60)]
    assert len({s.pair_index for s in states}) > 20
    assert len({s.spies[0] for s in states}) == 4
    fixed = [new_state(seed=seed) for seed in range(30)]
    assert {s.spy_word for s in fixed} == {"coffee", "cocoa"}, "either word of the pair can be the spy word"


def test_fact2_no_observation_carries_another_seats_word_before_the_end():
    for index in range(len(word_pairs())):
        played = SpyGame({"pair_index": index}, 4).new_initial_state(index)
        for _ in play_random(played, random.Random(index)):
            pass
        # Replay the same game and check every position before the end.
        state = SpyGame({"pair_index": index}, 4).new_initial_state(index)
        for record in played.log:
            for seat in range(4):
                other = state.spy_word if state.words[seat] == state.villager_word else state.villager_word
                assert other not in obs_json(state, seat), (index, seat, other)
            public = obs_json(state, None)
            assert state.spy_word not in public and state.villager_word not in public, index
            state.apply_action(record.seat, record.action_id, record.text)
        assert state.is_terminal()
        for seat in [*range(4), None]:  # at the end both words are shown to everyone
            seen = obs_json(state, seat)
            assert state.spy_word in seen and state.villager_word in seen


def test_fact3_a_description_with_the_own_word_is_rejected_in_any_case():
    state = new_state()
    seat = state.current_seats()[0]
    word = state.words[seat]
    before = json.dumps(state.to_json())
    for text in (f"I like {word}", word.upper(), f"{word.capitalize()} every day", f"a {word}house nearby",
                 f"un{word.upper()}able"):
        with pytest.raises(IllegalActionError, match="your own secret word"):
            state.apply_action(seat, "describe", text)
    assert json.dumps(state.to_json()) == before
    state.apply_action(seat, "describe", "a warm drink")  # the other word of the pair would be fine too
    assert state.current_seats() != [seat]


def test_fact4_a_seat_cannot_vote_for_itself_and_its_options_exclude_it():
    state = new_state()
    describe_round(state)
    assert state.phase == "vote" and sorted(state.current_seats()) == [0, 1, 2, 3]
    for seat in range(4):
        ids = [a.id for a in state.legal_actions(seat)]
        assert sorted(ids) == sorted(f"vote:{c}" for c in range(4) if c != seat)
        with pytest.raises(IllegalActionError):
            state.apply_action(seat, f"vote:{seat}")


def test_fact5_votes_two_one_one_put_the_top_villager_out_and_three_remain():
    state = new_state(seed=3)
    (spy,), (v1, v2, v3) = spy_and_villagers(state)
    describe_round(state)
    vote(state, {spy: v1, v2: v1, v1: v2, v3: spy})
    assert state.out_round[v1] == 1 and state.out_how[v1] == "vote"
    assert state.alive_seats() == sorted([spy, v2, v3])
    assert not state.is_terminal() and state.round["n"] == 2 and not state.round["runoff"]
    assert sorted(state.round["order"]) == sorted([spy, v2, v3])
    assert state.measures(v1)["voted_out"] is True and state.measures(v1)["rounds_survived"] == 0


def test_fact6_with_three_left_a_villager_going_out_wins_for_the_spy():
    state = new_state(seed=5)
    (spy,), (v1, v2, v3) = spy_and_villagers(state)
    describe_round(state)
    vote(state, {spy: v1, v2: v1, v1: v2, v3: v1})
    describe_round(state)
    vote(state, {spy: v2, v2: spy, v3: v2})
    assert state.is_terminal() and state.winners == "spies" and state.ending == "out"
    assert state.scores() == [1.0 if s == spy else 0.0 for s in range(4)]
    assert state.measures(spy) == {"is_spy": True, "won": True, "rounds_survived": 2, "rounds_played": 2,
                                   "votes_received": 1, "voted_out": False}
    assert "the spies win" in state.result_text()


def test_fact7_the_spy_going_out_wins_for_the_villagers_at_once():
    state = new_state(seed=8)
    (spy,), villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {v: spy for v in villagers} | {spy: villagers[0]})
    assert state.is_terminal() and state.winners == "villagers" and len(state.rounds) == 1
    assert state.current_seats() == []
    assert state.scores() == [0.0 if s == spy else 1 / 3 for s in range(4)]
    assert state.measures(spy)["votes_received"] == 3 and state.measures(spy)["voted_out"] is True
    assert state.measures(villagers[0])["won"] is True and state.measures(villagers[0])["is_spy"] is False


def test_fact9_the_speaking_order_is_reshuffled_every_round_and_reproducible():
    def orders(seed):
        state = new_state(seed=seed, max_rounds=12)
        for _ in range(10):
            describe_round(state)
            vote(state, {0: 1, 1: 2, 2: 3, 3: 0})  # everyone tied: a new full round each time
        return [tuple(r["order"]) for r in state.rounds]

    first = orders(21)
    assert first == orders(21)
    assert len(set(first)) > 3, "a fresh order each round"
    assert all(sorted(o) == [0, 1, 2, 3] for o in first)
    assert orders(22) != first
    state = new_state(seed=21)
    assert f"speaking order: {', '.join(f'Player {s + 1}' for s in first[0])}" in state.observation(None).text
