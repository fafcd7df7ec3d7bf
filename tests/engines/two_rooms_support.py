"""Shared helpers of the Two Rooms and a Boom engine tests: a new game, and random moves played until a condition
holds (by default, the end)."""

from __future__ import annotations

from gameplay.engines.two_rooms_and_a_boom import TwoRoomsGame


def new_state(seats, seed=0, options=None):
    return TwoRoomsGame(options or {}, seats).new_initial_state(seed)


def play_random(state, rng, until=lambda s: s.is_terminal()):
    while not until(state):
        seat = state.current_seats()[0]
        state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    return state
