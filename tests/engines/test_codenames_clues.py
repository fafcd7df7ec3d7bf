"""Codenames clues and play: clue validation, the penalty option, roles and the guesser, the GameBench options."""

from __future__ import annotations

import pytest

from gameplay.engines.codenames import CodenamesGame
from gameplay.engines.codenames import clues as clue_rules
from gameplay.engines.codenames.words import word_list

from .codenames_support import ASSASSIN_CELL, BLUE_CELL, BYSTANDER_CELL, KEY, clue, guess, ids, position, rejected

# --- clue validation --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,why", [
    ("r2d2,1", "letters only"), ("fruit!,1", "letters only"), ("a_b,1", "letters only"), ("-fruit,1", "letters"),
    ("fruit-,1", "letters only"), ("café,1", "letters only"), ("123,1", "letters only"),
    ("fruit,10", "0 to 9"), ("fruit,-1", "0 to 9"), ("fruit,two", "0 to 9"), ("fruit,1.5", "0 to 9"),
    ("fruit", "word and a number"), ("fruit,", "0 to 9"), (",2", "no word"), ("hello", "word and a number"),
    ("HORSESHOES,1", "HORSESHOE"), ("apples,1", "APPLE"), ("rules,1", "RULER"), ("ruling,1", "RULER"),
    ("tigers,1", "TIGER"), ("whaler,1", "WHALE"), ("banked,1", "BANK"), ("banking,1", "BANK"),
    ("islands,1", "ISLAND"), ("ghosted,1", "GHOST"), ("sea-shark,1", "SHARK"), ("zebra's,1", "ZEBRA"),
])
def test_invalid_clues_are_refused_with_a_reason(text, why):
    rejected(position(), text, why)


@pytest.mark.parametrize("text,shown", [
    ("fruit,1", ("FRUIT", 1)), ("Fruit 3", ("FRUIT", 3)), ("  fruit , 0 ", ("FRUIT", 0)),
    ("fruit,unlimited", ("FRUIT", None)), ("fruit UNLIMITED", ("FRUIT", None)), ("sea-lion,2", ("SEA-LION", 2)),
    ("o'clock,1", ("O'CLOCK", 1)), ("tight,1", ("TIGHT", 1)), ("ok 1", ("OK", 1)), ("word,1", ("WORD", 1)),
])
def test_valid_clues_are_accepted_and_normalised(text, shown):
    state = position()
    clue(state, text)
    assert (state.clue["w"], state.clue["n"]) == shown
    assert state.log[-1].text == f"{shown[0]},{'unlimited' if shown[1] is None else shown[1]}"


def test_the_clue_check_compares_forms_without_common_endings():
    assert clue_rules.clash("DANCED", "DANCER") and clue_rules.clash("jumping", "JUMPER")
    assert clue_rules.clash("boxes", "BOX") and clue_rules.clash("horse", "HORSESHOE")
    assert not clue_rules.clash("tight", "TIGER") and not clue_rules.clash("river", "TIRE")


def test_the_word_list_is_big_distinct_single_words_and_never_clashes_with_generic_test_texts():
    words = word_list()
    assert len(words) >= 400 and len(set(words)) == len(words)
    assert all(w.isalpha() and w.isascii() and w.isupper() for w in words)
    for probe in ("hello", "yes", "ok", "word", "river", "stone", "light", "paper"):
        assert not [w for w in words if clue_rules.clash(probe, w)], probe


def test_a_revealed_word_may_be_used_as_clue():
    state = position()
    clue(state, "fruit,1")
    guess(state, 0)
    state.apply_action(2, "end_turn")
    clue(state, "apple,1")
    assert state.clue["w"] == "APPLE"


# --- the penalty option ---------------------------------------------------------------------------------


def test_with_the_penalty_an_invalid_clue_ends_the_turn_and_the_opponent_covers_an_agent():
    state = position(options={"invalid_clue_penalty": True})
    rejected(state, "fruit,12", "0 to 9")  # not a clue at all: still refused
    assert "invalid clue" in state.action_labels(0, "clue", "apple,2").public
    clue(state, "apple,2")
    assert state.phase == "cover" and state.current_seats() == [1] and state.clues_given == [0, 0]
    assert ids(state, 1) == [f"cover:{c}" for c in range(9, 17)]
    state.apply_action(1, "cover:9")
    assert state.revealed[9] and state.agents_left(1) == 7
    assert state.team == 1 and state.phase == "clue" and state.current_seats() == [1]
    assert "invalid clue APPLE, 2" in state.observation(2).text
    assert state.clone().history[0]["k"] == "invalid" and state.log[0].text == "APPLE,2"


def test_a_penalty_cover_of_the_last_agent_wins_for_the_covering_team():
    state = position(options={"invalid_clue_penalty": True})
    for cell in range(9, 16):
        state.revealed[cell] = True
    clue(state, "apple,2")
    state.apply_action(1, "cover:16")
    assert state.is_terminal() and state.winning_team == 1


# --- seats, roles and the guesser -----------------------------------------------------------------------


def test_seats_alternate_teams_and_the_guesser_rotates_among_the_team_operatives():
    game = CodenamesGame({}, 7)
    assert game.teams() == [0, 1, 0, 1, 0, 1, 0]
    assert game.seat_name(0) == "Player 1 (Red Spymaster)" and game.seat_name(5) == "Player 6 (Blue Operative)"
    state = position(seats=7)
    guessers = []
    for _ in range(3):
        clue(state, "fruit,1")  # Red
        guessers.append(state.current_seats()[0])
        assert state.text_actions(0) == [] and ids(state, 0) == []
        guess(state, BYSTANDER_CELL + len(guessers) - 1)
        clue(state, "fruit,1")  # Blue
        guessers.append(state.current_seats()[0])
        guess(state, BYSTANDER_CELL + len(guessers) - 1)
    assert guessers == [2, 3, 4, 5, 6, 3]


def test_a_spymaster_sees_the_key_and_labels_word_a_guess_with_its_identity():
    state = position()
    assert "APPLE=red" in state.observation(1).text and "ZEBRA=assassin" in state.observation(0).text
    assert "APPLE" in state.observation(2).text and "APPLE=red" not in state.observation(2).text
    clue(state, "fruit,1")
    labels = state.action_labels(2, "guess:9")
    assert labels.public == "Player 3 (Red Operative) guesses JACKET: Blue agent."
    assert [a.label for a in state.legal_actions(2)][:2] == ["Guess APPLE", "Guess BANK"]


# --- GameBench options ------------------------------------------------------------------------------------


def test_gamebench_board_has_21_cards_9_8_3_1_and_red_always_starts():
    for seed in range(10):
        state = CodenamesGame({"gamebench_board": True}, 4).new_initial_state(seed)
        assert len(state.words) == 21 and state.starting == 0 and state.current_seats() == [0]
        assert [state.key.count(k) for k in ("red", "blue", "bystander", "assassin")] == [9, 8, 3, 1]


def test_gamebench_unchecked_clues_take_any_text_but_a_bad_number():
    state = position(options={"gamebench_unchecked_clues": True})
    clue(state, "apple pie,2")
    assert state.clue == {"w": "apple pie", "n": 2}
    state = position(options={"gamebench_unchecked_clues": True})
    clue(state, "hello")
    assert state.clue == {"w": "None", "n": 1}
    state = position(options={"gamebench_unchecked_clues": True})
    rejected(state, "apple,-1", "negative")


def test_gamebench_end_turn_anytime_lets_the_guesser_stop_before_guessing():
    state = position(options={"gamebench_end_turn_anytime": True})
    clue(state, "fruit,1")
    assert "end_turn" in ids(state, 2)
    state.apply_action(2, "end_turn")
    assert state.team == 1 and state.phase == "clue"


def test_the_turn_cap_ends_a_game_of_empty_turns_and_a_tie_is_shared():
    state = position(options={"gamebench_end_turn_anytime": True, "max_turns": 10})
    state.key = ["red"] * 8 + ["bystander"] + KEY[9:]  # 8 agents each
    for _ in range(10):
        clue(state, "fruit,1")
        state.apply_action(state.current_seats()[0], "end_turn")
    assert state.is_terminal() and state.ending == "cap" and state.scores() == [0.25] * 4
    assert len(state.log) <= state.game.max_actions()


def test_gamebench_scores_count_revealed_agents_plus_3_for_the_winner():
    state = position(options={"gamebench_scores": True})
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 1)
    guess(state, 2)  # Red: 3 found
    clue(state, "fruit,1")
    guess(state, 9)  # Blue: 1 found
    guess(state, ASSASSIN_CELL)  # Blue picks the assassin: Blue scores 0, Red 3 + 3
    assert state.scores() == [0.5, 0.0, 0.5, 0.0]
    state = position(options={"gamebench_scores": True})
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 16)  # Blue wins with 8 found (+3 = 11) against Red's 1
    assert state.scores() == [pytest.approx(1 / 24), pytest.approx(11 / 24)] * 2
