"""Shared helpers of the Codenames engine tests: a fixed position (its words, key and notable cells), the legal
action ids, giving a clue, guessing a cell, and a clue refused with the state unchanged."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.codenames import CodenamesGame

# A fixed position: cells 0-8 Red, 9-16 Blue, 17-23 bystanders, 24 the assassin; Red starts.
WORDS = ["APPLE", "BANK", "CASTLE", "DRAGON", "EAGLE", "FOREST", "GHOST", "HORSESHOE", "ISLAND",
         "JACKET", "KETTLE", "LEMON", "MAGNET", "NEEDLE", "OCEAN", "PIANO", "QUEEN",
         "RULER", "SHARK", "TIGER", "UMBRELLA", "VIOLIN", "WHALE", "YACHT", "ZEBRA"]
KEY = ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
BLUE_CELL, BYSTANDER_CELL, ASSASSIN_CELL = 9, 17, 24


def position(seats=4, options=None, starting=0, words=WORDS, key=KEY):
    state = CodenamesGame(options or {}, seats).new_initial_state(0)
    state.words, state.key = list(words), list(key)
    state.revealed = [False] * len(words)
    state.starting = state.team = starting
    return state


def ids(state, seat):
    return [a.id for a in state.legal_actions(seat)]


def clue(state, text):
    state.apply_action(state.current_seats()[0], "clue", text)


def guess(state, cell):
    state.apply_action(state.current_seats()[0], f"guess:{cell}")


def rejected(state, text, match=None):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match=match):
        clue(state, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before
