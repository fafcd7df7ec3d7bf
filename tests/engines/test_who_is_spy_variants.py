"""Who is Spy: several spies, the spy_guess variant, and why each game ended (State.end_reason)."""

from __future__ import annotations

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.who_is_spy import SpyGame

from .who_is_spy_support import describe_round, fresh_clue, new_state, spy_and_villagers, to_speaker, vote

# --- several spies -----------------------------------------------------------------------------------------


def test_the_number_of_spies_must_fit_the_table():
    with pytest.raises(InvalidOptionsError, match="2 spies need at least 5 players"):
        SpyGame({"spies": 2}, 4)
    with pytest.raises(InvalidOptionsError, match="4 spies need at least 9 players"):
        SpyGame({"spies": 4}, 8)
    assert SpyGame({"spies": 4}, 9).options["spies"] == 4
    with pytest.raises(InvalidOptionsError):
        SpyGame({"spies": 5}, 10)


def test_two_spies_win_once_they_match_the_villagers_left():
    state = new_state(seats=6, seed=9, spies=2)
    spies, villagers = spy_and_villagers(state)
    assert len(spies) == 2 and state.words.count(state.spy_word) == 2
    describe_round(state)
    vote(state, {s: villagers[0] for s in range(6) if s != villagers[0]} | {villagers[0]: villagers[1]})
    assert not state.is_terminal()  # 2 spies, 3 villagers
    describe_round(state)
    alive = state.alive_seats()
    vote(state, {s: villagers[1] for s in alive if s != villagers[1]} | {villagers[1]: villagers[2]})
    assert state.is_terminal() and state.winners == "spies"
    assert state.scores() == [0.5 if s in spies else 0.0 for s in range(6)]


def test_two_spies_both_have_to_go_for_the_villagers_to_win():
    state = new_state(seats=6, seed=9, spies=2)
    spies, villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {s: spies[0] for s in range(6) if s != spies[0]} | {spies[0]: villagers[0]})
    assert not state.is_terminal() and state.out_round[spies[0]] == 1
    describe_round(state)
    vote(state, {s: spies[1] for s in state.alive_seats() if s != spies[1]} | {spies[1]: villagers[0]})
    assert state.is_terminal() and state.winners == "villagers"
    assert state.scores() == [0.0 if s in spies else 0.25 for s in range(6)]
    assert "the spies were" in state.result_text()


# --- the spy_guess variant ---------------------------------------------------------------------------------


def test_spy_guess_is_off_by_default_and_offered_to_every_speaker_when_on():
    state = new_state()
    assert [t.id for t in state.text_actions(state.current_seats()[0])] == ["describe"]
    with pytest.raises(IllegalActionError):
        state.apply_action(state.current_seats()[0], "spy_guess", "tea")
    on = new_state(spy_guess=True)
    seen = set()
    while on.phase == "describe":
        seat = on.current_seats()[0]
        seen.add(seat)
        assert [t.id for t in on.text_actions(seat)] == ["describe", "spy_guess"]
        on.apply_action(seat, "describe", fresh_clue())
    assert seen == {0, 1, 2, 3}




def test_a_spy_naming_the_villagers_word_wins_for_the_spies():
    state = new_state(seed=12, spy_guess=True)
    (spy,), _ = spy_and_villagers(state)
    to_speaker(state, spy)
    labels = state.action_labels(spy, "spy_guess", state.villager_word.upper())
    assert "right" in labels.public and state.villager_word not in labels.public
    state.apply_action(spy, "spy_guess", state.villager_word.upper())
    assert state.is_terminal() and state.winners == "spies" and state.ending == "guess"
    assert "named the villagers' word" in state.result_text()


def test_a_wrong_guess_puts_the_guesser_out_and_stays_private():
    state = new_state(seed=12, spy_guess=True)
    (spy,), villagers = spy_and_villagers(state)
    to_speaker(state, spy)
    with pytest.raises(IllegalActionError, match="not your own"):
        state.apply_action(spy, "spy_guess", state.spy_word)
    wordy = state.clone()
    wordy.apply_action(spy, "spy_guess", f"It is {state.villager_word}!")  # more than the word: wrong, not refused
    assert wordy.is_terminal() and wordy.winners == "villagers"
    state.apply_action(spy, "spy_guess", "lemonade")
    assert state.is_terminal() and state.winners == "villagers"  # the only spy is out
    guesser = next(v for v in range(4) if v != spy)
    state = new_state(seed=12, spy_guess=True)
    to_speaker(state, guesser)
    state.apply_action(guesser, "spy_guess", "lemonade")  # a villager who claims is out as well
    assert state.out_how[guesser] == "guess" and not state.is_terminal()
    assert "'lemonade'" in state.observation(guesser).text
    for viewer in [*(s for s in range(4) if s != guesser), None]:
        assert "lemonade" not in state.observation(viewer).text
        assert "wrong" in state.observation(viewer).text
    while not state.is_terminal():
        if state.phase == "describe":
            describe_round(state)
        else:
            vote(state, {v: state.legal_actions(v)[0].id.split(":")[1] for v in state.current_seats()})
    assert "lemonade" in state.observation(0).text  # shown to everyone at the end
    assert guesser not in state.round["voters"] and guesser not in state.round["candidates"]


def test_a_runoff_whose_candidates_all_guessed_wrong_has_no_vote():
    state = new_state(seats=6, seed=2, spy_guess=True)
    spies, _ = spy_and_villagers(state)
    tied = [s for s in range(6) if s not in spies][:2]
    others = [s for s in range(6) if s not in tied]
    describe_round(state)
    vote(state, {tied[0]: tied[1], tied[1]: tied[0], others[0]: tied[0], others[1]: tied[1], others[2]: tied[0],
                 others[3]: tied[1]})
    assert state.round["runoff"] and state.round["candidates"] == sorted(tied)
    for _ in tied:
        state.apply_action(state.current_seats()[0], "spy_guess", "lemonade")
    assert state.rounds[1]["outcome"]["k"] == "none"
    assert state.round["n"] == 3 and not state.round["runoff"] and sorted(state.round["order"]) == others


# --- why the game ended (State.end_reason) -----------------------------------------------------------------


def test_end_reason_every_spy_voted_out():
    state = new_state(seed=8, spy_seat=2)
    describe_round(state)
    assert state.end_reason() is None
    vote(state, {0: 2, 1: 2, 3: 2, 2: 0})
    assert state.winners == "villagers"
    assert state.end_reason() == "Every spy is out: Player 3 was voted out in round 1."


def test_end_reason_the_last_spy_out_after_a_wrong_guess():
    state = new_state(seed=12, spy_guess=True, spy_seat=2)
    to_speaker(state, 2)
    state.apply_action(2, "spy_guess", "lemonade")
    assert state.winners == "villagers"
    assert state.end_reason() == ("Every spy is out: Player 3 went out in round 1 with a wrong guess of the "
                                  "villagers' word.")


def test_end_reason_the_spies_as_many_as_the_villagers():
    state = new_state(seed=5, spy_seat=2)
    describe_round(state)
    vote(state, {0: 1, 1: 0, 2: 0, 3: 0})
    describe_round(state)
    vote(state, {1: 3, 2: 3, 3: 1})
    assert state.winners == "spies" and state.ending == "out"
    assert state.end_reason() == ("The spies still in are as many as the villagers (1 to 1) after Player 4 was voted "
                                  "out in round 2.")


def test_end_reason_two_spies_as_many_as_the_villagers():
    state = new_state(seats=6, seed=9, spies=2)
    spies, villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {s: villagers[0] for s in range(6) if s != villagers[0]} | {villagers[0]: villagers[1]})
    describe_round(state)
    vote(state, {s: villagers[1] for s in state.alive_seats() if s != villagers[1]} | {villagers[1]: villagers[2]})
    assert state.end_reason() == (f"The spies still in are as many as the villagers (2 to 2) after Player "
                                  f"{villagers[1] + 1} was voted out in round 2.")


def test_end_reason_a_spy_named_the_villagers_word():
    state = new_state(seed=12, spy_guess=True, spy_seat=1)
    to_speaker(state, 1)
    state.apply_action(1, "spy_guess", state.villager_word.upper())
    assert state.end_reason() == f"Player 2, a spy, named the villagers' word, {state.villager_word}."


def test_end_reason_the_round_limit_with_the_spy_still_in():
    state = new_state(seed=6, max_rounds=2, spy_seat=3)
    for _ in range(2):
        assert state.end_reason() is None
        describe_round(state)
        vote(state, {0: 1, 1: 2, 2: 3, 3: 0})  # everyone tied
    assert state.ending == "cap"
    assert state.end_reason() == "The round limit of 2 rounds was reached with the spy, Player 4, still in."


def test_end_reason_the_round_limit_with_one_of_two_spies_still_in():
    state = new_state(seats=6, seed=9, spies=2, max_rounds=2)
    spies, villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {s: spies[0] for s in range(6) if s != spies[0]} | {spies[0]: villagers[0]})
    describe_round(state)
    alive = state.alive_seats()
    vote(state, {s: alive[(i + 1) % len(alive)] for i, s in enumerate(alive)})  # everyone tied
    assert state.ending == "cap" and state.winners == "spies"
    assert state.end_reason() == (f"The round limit of 2 rounds was reached with 1 of the 2 spies still in "
                                  f"(Player {spies[1] + 1}).")
    assert state.clone().end_reason() == state.end_reason()
    assert state.to_json()["payload"]["end_reason"] == "cap"
