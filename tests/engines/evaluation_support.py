"""Helpers shared by the engines' search tests: one-ply greedy play on a declared evaluation, and the containers of a
JSON-like value (to show a sample shares none with the state it came from)."""

from __future__ import annotations

import random


def greedy(state, seat: int, rng: random.Random) -> str:
    """The action whose resulting state evaluates best for ``seat`` (ties broken at random)."""
    best, choices = -1.0, []
    for action in state.legal_actions(seat):
        after = state.clone()
        after.apply_action(seat, action.id)
        value = after.evaluation()[seat]
        if value > best + 1e-12:
            best, choices = value, [action.id]
        elif value > best - 1e-12:
            choices.append(action.id)
    return rng.choice(choices)


def containers(value, found: set) -> set:
    """The ids of every list and dict inside ``value``."""
    if isinstance(value, (list, dict)):
        found.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            containers(item, found)
    return found
