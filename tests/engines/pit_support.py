"""Shared helpers of the Pit engine tests: the options that switch on every GameBench rule, and a fresh state whose
hands are dealt by hand."""

from __future__ import annotations

from gameplay.engines.pit import PitGame

GAMEBENCH = {"bull_and_bear": True, "gamebench_deck": True, "gamebench_corner_at_6": True,
             "gamebench_public_commodities": True, "gamebench_unequal_trades": True,
             "gamebench_bear_penalty": True, "gamebench_share_scores": True}


def state_with(hands, options=None, seed=0):
    """A fresh state whose hands are replaced by ``hands`` (lists of card names)."""
    game = PitGame(options or {}, len(hands))
    state = game.new_initial_state(seed)
    state.hands = [{} for _ in hands]
    for seat, cards in enumerate(hands):
        for card in cards:
            state.hands[seat][card] = state.hands[seat].get(card, 0) + 1
    return state
