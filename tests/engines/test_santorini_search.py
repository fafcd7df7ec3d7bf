"""Santorini for search: the legal actions a state keeps between actions are never stale, and evaluation() (the
estimate a depth-limited search reads) favours the side that is winning."""

from __future__ import annotations

import random

from gameplay.engines.santorini import SantoriniGame


def test_kept_legal_actions_match_a_state_rebuilt_from_json():
    for seed in range(6):
        game = SantoriniGame({"alternate_workers": seed % 2 == 1})
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            fresh = game.state_from_json(state.to_json())
            assert legal == fresh.legal_actions(seat)
            legal.clear()  # a caller's list is its own
            assert state.legal_actions(seat) == fresh.legal_actions(seat)
            state.apply_action(seat, rng.choice(fresh.legal_actions(seat)).id)
