"""rounds.csv's ``won`` in a game whose camps are hidden until the end (Who is Spy, issue 40).

The winning civilians each score a share of the win (1/3 of three), and their camp is revealed only at the end
(``State.result_teams``); judged on ``Game.teams()`` (one team per seat) with raw scores, a civilian who won was
exported as ``won`` = 0, and so lost a bonus paid on ``won``. Pure: engine states, no database.
"""

from __future__ import annotations

import random

from gameplay.engines.registry import GAMES
from gameplay.studies.measures import _won


def played_out(seed: int, seats: int = 4):
    """A Who is Spy match played to the end by uniformly random moves (the first text action's example to talk)."""
    state = GAMES["who_is_spy"](None, seats).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        if actions:
            state.apply_action(seat, rng.choice(actions).id)
        else:
            text = state.text_actions(seat)[0]
            state.apply_action(seat, text.id, text.example)
    return state


def test_won_is_the_camps_result_for_spies_and_civilians_alike():
    outcomes = set()
    for seed in range(12):
        state = played_out(seed)
        camps = state.result_teams()
        spy = camps.index(1)
        spy_won = state.scores()[spy] > 0
        outcomes.add(spy_won)
        for seat in range(4):
            assert _won(state, seat) is ((seat == spy) == spy_won), (seed, seat, state.scores(), camps)
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}  # both camps' wins were checked
