"""Codenames' ``gamebench_unchecked_clues`` against GameBench's own reading of a clue (Joshuaclymer/GameBench,
games/codenames/game.py, ``CodenamesGame.update_spymaster``).

GameBench splits the Spymaster's text at every comma. Unless that gives exactly two parts, the clue is "None" for
1 guess. Otherwise the first part, exactly as written, is the word, and the second goes through Python's ``int``:
when ``int`` cannot read it, or reads a negative number, GameBench's game stops with an error, which this
platform turns into a refused text (the seat must give another clue). Any number from 0 up is taken, 0 meaning no
limit. The expected outcomes below are worked out by hand from that code.
"""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.codenames import CodenamesGame

OPTIONS = {"gamebench_unchecked_clues": True}
SEED = 3


def fresh():
    return CodenamesGame(OPTIONS, 4).new_initial_state(SEED)


def give(state, text):
    state.apply_action(state.current_seats()[0], "clue", text)


@pytest.mark.parametrize("text,word,number", [
    ("river,2", "river", 2),
    ("river 2", "None", 1),  # no comma: one part
    ("river unlimited", "None", 1),
    ("hello", "None", 1),
    ("river,2,3", "None", 1),  # three parts
    ("river,2,", "None", 1),
    ("River, 3", "River", 3),  # int() reads " 3"; the word keeps its case
    ("river , 2 ", "river ", 2),  # the word is taken as written, spaces and all
    ("apple pie,2", "apple pie", 2),  # no clue rule is checked
    (",2", "", 2),
    ("river,+2", "river", 2),
    ("river,0", "river", 0),  # 0: no limit on guesses
    ("river,12", "river", 12),  # GameBench has no upper bound
    ("river,1_0", "river", 10),  # int() allows an underscore between digits
])
def test_gamebench_reads_these_texts_as_these_clues(text, word, number):
    state = fresh()
    give(state, text)
    assert state.clue == {"w": word, "n": number}
    assert state.guesses_left() == (None if number == 0 else number + 1)


@pytest.mark.parametrize("text", [
    "river,unlimited",  # int("unlimited") fails: GameBench has no 'unlimited' clue
    "river,UNLIMITED",
    "river,two",
    "river,2.5",
    "river,",  # int("") fails
    "river,-1",  # GameBench raises on a negative number
    ",",
])
def test_texts_that_stop_gamebench_with_an_error_are_refused(text):
    state = fresh()
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="GameBench"):
        give(state, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_the_logged_clue_replays_to_the_same_clue():
    game = CodenamesGame(OPTIONS, 4)
    for text in ("river 2", "river , 2 ", ",2", "river,12"):
        state = game.new_initial_state(SEED)
        give(state, text)
        replayed = game.replay(SEED, state.log)
        assert replayed.clue == state.clue
        assert json.dumps(replayed.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)


def test_the_clue_hint_asks_for_what_gamebench_reads():
    state = fresh()
    seat = state.current_seats()[0]
    (spec,) = state.text_actions(seat)
    assert "unlimited" not in spec.hint and "0 for no limit" in spec.hint
    assert "unlimited" not in state.observation(seat).text and "0 for no limit" in state.observation(seat).text
    give(state, spec.example)  # the example clue is one GameBench reads
    assert state.clue["n"] == 1
    # Without the option the table's rule stands: 'unlimited' is offered.
    table = CodenamesGame({}, 4).new_initial_state(SEED)
    assert "unlimited" in table.text_actions(table.current_seats()[0])[0].hint
