"""Shared helpers of the Who is Spy engine tests: a state on a known word pair, rounds of descriptions and votes,
and random play."""

from __future__ import annotations

import json
from itertools import count
from pathlib import Path

from gameplay.engines.api import IllegalActionError
from gameplay.engines.who_is_spy import SpyGame

from .conformance import DEFAULT_TEXTS, with_numbered_variants

REPO = Path(__file__).resolve().parents[2]
_texts = count(1)


def fresh_clue() -> str:
    """A description never given before in this test run (the engine refuses a repeat by default)."""
    return f"clue number {next(_texts)}"


def new_state(seats=4, seed=0, **options):
    """Pair 0 (coffee/cocoa) unless told otherwise, so descriptions below never contain a word by accident."""
    return SpyGame({"pair_index": 0, **options}, seats).new_initial_state(seed)


def spy_and_villagers(state):
    spies = list(state.spies)
    return spies, [s for s in range(state.game.num_seats) if s not in spies]


def describe_round(state):
    """Every speaker of the current round gives a fresh description."""
    assert state.phase == "describe"
    while state.phase == "describe":
        seat = state.current_seats()[0]
        state.apply_action(seat, "describe", fresh_clue())


def vote(state, ballots):
    for voter, target in ballots.items():
        state.apply_action(voter, f"vote:{target}")


def obs_json(state, seat):
    return json.dumps(state.observation(seat).to_json()).lower()


def play_random(state, rng):
    while not state.is_terminal():
        seat = rng.choice(state.current_seats())
        actions = state.legal_actions(seat)
        if actions:
            state.apply_action(seat, rng.choice(actions).id)
            continue
        spec = rng.choice(state.text_actions(seat))
        for text in with_numbered_variants(DEFAULT_TEXTS):
            try:
                state.apply_action(seat, spec.id, text)
                break
            except IllegalActionError:
                continue
        else:
            raise AssertionError("no random text was accepted")
        yield state


def to_speaker(state, seat):
    """Descriptions are given in turn until it is ``seat``'s turn to speak."""
    while state.current_seats() != [seat]:
        state.apply_action(state.current_seats()[0], "describe", fresh_clue())
