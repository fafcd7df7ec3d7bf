"""Shared helpers of the Are You the Traitor? engine tests: the five-seat table, a state with a chosen deal and first
speaker, the legal action ids, finishing the Magic Ring step, and every seat's view as JSON."""

from __future__ import annotations

import json

from gameplay.engines.are_you_the_traitor import TraitorGame

G, E = "good", "evil"
# 5 seats: Player 1 Traitor, Player 2 Evil Wizard, Player 3 Good Wizard, Player 4 Keyholder, Player 5 Guard.
FIVE = (["traitor", "wizard", "wizard", "keyholder", "guard"], [None, E, G, None, None])


def state_with(characters, alignments, options=None, seed=0, actor=0):
    """A fresh state whose round-one deal is replaced, with ``actor`` first to talk."""
    state = TraitorGame(options or {}, len(characters)).new_initial_state(seed)
    state.characters, state.alignments = list(characters), list(alignments)
    state.start, state.turn = actor, 0
    return state


def ids(state, seat):
    return [a.id for a in state.legal_actions(seat)]


def finish_ring_step(state):
    while state.phase == "ring":
        state.apply_action(state.current_seats()[0], "keep_ring")


def views(state):
    return {seat: json.dumps(state.observation(seat).to_json()) for seat in [*range(state.game.num_seats), None]}
