"""Who is Spy: the fact sheet's test facts (test_factN_...), description checks, ties, several spies, the spy_guess
variant, secret votes, the word-pair list, and seeded random playouts with invariants at 4 and 6 seats."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.who_is_spy import SpyGame
from gameplay.engines.who_is_spy.rules import RULES
from gameplay.engines.who_is_spy.words import PAIRS_PATH, word_pairs

from .conformance import DEFAULT_TEXTS, check_playouts
from .who_is_spy_support import (
    REPO,
    describe_round,
    fresh_clue,
    new_state,
    obs_json,
    play_random,
    spy_and_villagers,
    vote,
)

# --- test facts ------------------------------------------------------------------------------------------


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


def test_fact8_a_first_partial_tie_gives_a_runoff_of_the_tied_voted_by_the_others():
    state = new_state(seed=2)
    a, b, c, d = 0, 1, 2, 3
    describe_round(state)
    vote(state, {a: b, b: a, c: a, d: b})  # 2-2-0-0
    r = state.round
    assert r["runoff"] and r["n"] == 2 and sorted(r["order"]) == [a, b]
    assert r["candidates"] == [a, b] and r["voters"] == [c, d]
    assert state.alive_seats() == [0, 1, 2, 3]
    assert "run-off" in state.observation(None).text
    # Only the tied players describe ...
    spoken = []
    while state.phase == "describe":
        spoken.append(state.current_seats()[0])
        state.apply_action(spoken[-1], "describe", fresh_clue())
    assert sorted(spoken) == [a, b]
    # ... and only the others vote, for a tied player.
    assert sorted(state.current_seats()) == [c, d]
    assert state.legal_actions(a) == [] and {x.id for x in state.legal_actions(c)} == {f"vote:{a}", f"vote:{b}"}
    vote(state, {c: a, d: a})
    assert state.out_round[a] == 2 and not state.round["runoff"]


def test_a_second_partial_tie_in_a_row_resets_to_a_normal_round():
    state = new_state(seed=2)
    describe_round(state)
    vote(state, {0: 1, 1: 0, 2: 0, 3: 1})
    describe_round(state)
    vote(state, {2: 0, 3: 1})  # the run-off ties again
    r = state.round
    assert r["n"] == 3 and not r["runoff"] and sorted(r["order"]) == [0, 1, 2, 3] and r["voters"] == [0, 1, 2, 3]
    assert state.rounds[1]["outcome"]["k"] == "reset" and state.alive_seats() == [0, 1, 2, 3]
    # The counter starts again: the next partial tie is a first one and gives a run-off.
    describe_round(state)
    vote(state, {0: 2, 1: 3, 2: 3, 3: 2})
    assert state.round["runoff"] and state.round["candidates"] == [2, 3]


def test_everyone_tied_means_nobody_out_and_a_new_full_round():
    state = new_state(seed=4)
    describe_round(state)
    vote(state, {0: 1, 1: 2, 2: 3, 3: 0})
    assert state.rounds[0]["outcome"]["k"] == "all_tied"
    assert state.alive_seats() == [0, 1, 2, 3] and not state.round["runoff"] and state.round["n"] == 2
    assert "nobody is out" in state.observation(2).text


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


def test_fact10_seven_undecided_rounds_end_the_game_with_a_spy_win():
    state = new_state(seed=6)
    for n in range(1, 8):
        assert not state.is_terminal() and state.round["n"] == n
        describe_round(state)
        vote(state, {0: 1, 1: 2, 2: 3, 3: 0})
    assert state.is_terminal() and state.winners == "spies" and state.ending == "cap"
    assert len(state.rounds) == 7 and len(state.log) <= state.game.max_actions()
    (spy,), _ = spy_and_villagers(state)
    assert state.scores()[spy] == 1.0 and "No decision within 7 rounds" in state.result_text()
    short = new_state(seed=6, max_rounds=2)
    describe_round(short)
    vote(short, {0: 1, 1: 0, 2: 0, 3: 1})  # a run-off round also counts
    describe_round(short)
    vote(short, {2: 0, 3: 1})  # tied again: the cap comes before the reset round
    assert short.is_terminal() and short.ending == "cap" and len(short.rounds) == 2


# --- descriptions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,reason", [
    ("", "needs text"), ("   ", "needs text"), ("... !!", "empty"),
    ("one two three four five six seven eight nine ten eleven", "11 words"),
])
def test_descriptions_that_are_empty_or_too_long_are_refused(text, reason):
    state = new_state()
    seat = state.current_seats()[0]
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_action(seat, "describe", text)
    assert state.current_seats() == [seat]


def test_the_word_limit_is_an_option_and_lines_are_joined():
    state = new_state(max_description_words=3)
    seat = state.current_seats()[0]
    with pytest.raises(IllegalActionError, match="at most 3"):
        state.apply_action(seat, "describe", "one two three four")
    state.apply_action(seat, "describe", "one\ntwo   three")
    assert state.round["talk"][-1]["text"] == "one two three"


def test_the_own_word_is_refused_inside_another_word_but_the_other_word_is_not():
    state = new_state()
    seat = state.current_seats()[0]
    other = state.spy_word if state.words[seat] == state.villager_word else state.villager_word
    with pytest.raises(IllegalActionError):
        state.apply_action(seat, "describe", f"decaf{state.words[seat]}")
    state.apply_action(seat, "describe", f"not {other} at all")


def test_a_repeat_is_refused_by_default_after_normalising():
    state = new_state()
    state.apply_action(state.current_seats()[0], "describe", "Hello there!")
    seat = state.current_seats()[0]
    for text in ("hello there", "  HELLO,   there. "):
        with pytest.raises(IllegalActionError, match="already given"):
            state.apply_action(seat, "describe", text)
    state.apply_action(seat, "describe", "hello over there")


def test_a_repeat_is_struck_with_the_strike_rule_and_counts_with_allow():
    state = new_state(repeat_rule="strike")
    first = state.current_seats()[0]
    state.apply_action(first, "describe", "Hello there!")
    second = state.current_seats()[0]
    labels = state.action_labels(second, "describe", "hello THERE")
    assert "struck" in labels.public
    state.apply_action(second, "describe", "hello THERE")
    assert [t["struck"] for t in state.round["talk"]] == [False, True]
    assert f"Player {second + 1} said: hello THERE (a repeat" in state.observation(None).text
    allowed = new_state(repeat_rule="allow")
    allowed.apply_action(allowed.current_seats()[0], "describe", "same")
    allowed.apply_action(allowed.current_seats()[0], "describe", "same")
    assert [t["struck"] for t in allowed.round["talk"]] == [False, False]


def test_descriptions_are_public_in_labels_and_observations():
    state = new_state()
    seat = state.current_seats()[0]
    labels = state.action_labels(seat, "describe", "a dark morning drink")
    assert labels.public == f"Player {seat + 1} describes their word: a dark morning drink"
    assert labels.for_viewer(seat) == "You describe your word: a dark morning drink"
    state.apply_action(seat, "describe", "a dark morning drink")
    for viewer in [*range(4), None]:
        assert "a dark morning drink" in state.observation(viewer).text


# --- votes -----------------------------------------------------------------------------------------------


def test_votes_are_secret_by_default_and_public_with_show_votes():
    state = new_state(seed=1)
    describe_round(state)
    labels = state.action_labels(0, "vote:2")
    assert labels.public == "Player 1 has voted" and labels.for_viewer(1) == "Player 1 has voted"
    assert labels.for_viewer(0) == "You vote for Player 3"
    state.apply_action(0, "vote:2")
    assert "In round 1 you voted for Player 3." in state.observation(0).text
    for viewer in (1, 2, 3, None):
        assert "voted for" not in state.observation(viewer).text
    assert "In round 1 you voted for Player 3." in state.secrets()[0]
    open_votes = new_state(seed=1, show_votes=True)
    describe_round(open_votes)
    assert open_votes.action_labels(0, "vote:2").public == "Player 1 votes for Player 3"
    open_votes.apply_action(0, "vote:2")
    assert "Player 1 voted for Player 3" in open_votes.observation(3).text


def test_vote_options_are_shuffled_per_voter_and_reproducible():
    orders = set()
    for seed in range(10):
        state = new_state(seed=seed, seats=6)
        describe_round(state)
        again = new_state(seed=seed, seats=6)
        describe_round(again)
        for voter in range(6):
            ids = [a.id for a in state.legal_actions(voter)]
            assert ids == [a.id for a in again.legal_actions(voter)]
            orders.add(tuple(ids))
    assert len(orders) > 30


def test_teams_stay_one_per_seat_so_camps_stay_secret_and_the_result_names_the_camps():
    assert SpyGame({"spies": 2}, 6).teams() == [0, 1, 2, 3, 4, 5]
    state = new_state(seed=8)
    assert state.result_teams() == [0, 1, 2, 3]
    (spy,), villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {v: spy for v in villagers} | {spy: villagers[0]})
    assert state.result_teams() == [1 if s == spy else 0 for s in range(4)]


# --- word pairs, rules, no Django -------------------------------------------------------------------------


def test_the_pairs_file_has_at_least_100_distinct_pairs_of_single_common_words():
    raw = json.loads(PAIRS_PATH.read_text(encoding="utf-8"))
    assert PAIRS_PATH == REPO / "fixtures" / "who_is_spy_pairs.json"
    assert len(raw) >= 100
    words = [w for pair in raw for w in pair]
    assert all(len(pair) == 2 for pair in raw)
    assert len(set(words)) == len(words), "no word appears twice"
    assert all(w.isalpha() and w.islower() and len(w) >= 4 for w in words)
    assert not {"hello", "yes", "ok", "word"} & set(words)
    assert all(a not in b and b not in a for a, b in raw)
    stock = [*DEFAULT_TEXTS, "I agree.", "Let's see.", "Pass.", "Sounds good.", "Not sure yet."]
    assert not [w for w in words for text in stock if w in text.lower()], "random players' texts must stay legal"
    rules_text = " ".join([RULES.summary, *RULES.topics, *RULES.topics.values()]).lower()
    assert not [w for w in words if w in rules_text], "the rules text primes no word of the list"
    assert word_pairs() is word_pairs(), "loaded once"


def test_the_engine_loads_its_pairs_without_django():
    code = ("import sys; from gameplay.engines.who_is_spy import SpyGame; "
            "SpyGame({}, 4).new_initial_state(1); assert 'django' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


def test_every_action_names_existing_rule_topics():
    state = new_state(spy_guess=True)
    seat = state.current_seats()[0]
    for action in ("describe", "spy_guess", "vote:1"):
        assert state.rule_topics(seat, action)
        assert all(t in RULES.topics for t in state.rule_topics(seat, action))
    assert set(RULES.topics) == {"Words and camps", "Describing", "Voting and ties", "Elimination and winning",
                                 "Inferring your own role"}


def test_secrets_are_the_word_sentences_and_vanish_at_the_end():
    state = new_state(seed=8)
    secrets = state.secrets()
    assert secrets[state.spies[0]] == [f"Your secret word is {state.spy_word}."]
    for seat in range(4):
        assert secrets[seat][0] in state.observation(seat).text
    (spy,), villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {v: spy for v in villagers} | {spy: villagers[0]})
    assert state.secrets() == {}
    assert "the spy was Player" in state.observation(None).text


# --- random playouts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats,options", [
    (4, {}), (4, {"spy_guess": True, "show_votes": True}), (4, {"repeat_rule": "allow", "max_rounds": 3}),
    (6, {}), (6, {"spies": 2}), (6, {"spies": 2, "spy_guess": True}),
])
def test_random_playouts_keep_the_invariants(seats, options):
    finals = check_playouts(lambda: SpyGame(options, seats), n_playouts=25, base_seed=300)
    for state in finals:
        spies = state.spies
        assert len(spies) == options.get("spies", 1)
        assert all(state.words[s] == state.spy_word for s in spies)
        assert len(state.rounds) <= state.game.options["max_rounds"]
        alive_spies = [s for s in spies if state.alive(s)]
        alive_villagers = [s for s in state.alive_seats() if s not in spies]
        if state.winners == "villagers":
            assert not alive_spies
        elif state.ending == "out":
            assert len(alive_spies) >= len(alive_villagers)
        team = [s for s in range(seats) if (s in spies) == (state.winners == "spies")]
        assert state.scores() == [1 / len(team) if s in team else 0.0 for s in range(seats)]
        measures = [state.measures(s) for s in range(seats)]
        assert sum(m["votes_received"] for m in measures) == sum(
            1 for r in state.rounds for t in r["votes"] if t is not None)
        assert all(m["won"] == (s in team) for s, m in enumerate(measures))
        for r in state.rounds:
            assert sorted(r["order"]) == sorted(set(r["order"]))
            assert all(v not in r["candidates"] for v in r["voters"]) or not r["runoff"]
