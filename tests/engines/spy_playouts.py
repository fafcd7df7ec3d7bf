"""Seeded random Who is Spy playouts for tests that look at every view of every step: descriptions drawn from a
small pool (so repeats happen under every repeat rule), passes and abstentions when the timer offers them, and spy
guesses (some naming the villagers' word) in the spy_guess variant."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gameplay.engines.api import IllegalActionError
from gameplay.engines.who_is_spy import SpyGame

# (seats, options): defaults, every option on its own and together, several spies, the timers.
CONFIGS: tuple[tuple[int, dict], ...] = (
    (4, {}),
    (4, {"show_votes": True}),
    (5, {"spy_guess": True}),
    (5, {"spy_guess": True, "show_votes": True, "repeat_rule": "strike"}),
    (6, {"spies": 2, "repeat_rule": "allow", "max_rounds": 4}),
    (6, {"spies": 2, "describe_seconds": 30, "vote_seconds": 30}),
    (7, {"spies": 3, "describe_seconds": 30, "vote_seconds": 30, "show_votes": True, "spy_guess": True}),
    (10, {"spies": 4, "spy_guess": True, "repeat_rule": "strike", "vote_seconds": 30}),
)
SEEDS = range(12)
POOL = ("it is round", "you can eat it", "found in a kitchen", "people like it", "it is round", "small and common")
GUESSES = ("apple", "river", "cloud")


def _text(state, seat: int, action_id: str, rng: random.Random, tries: int) -> str:
    if action_id == "spy_guess":
        return state.villager_word if rng.random() < 0.3 else rng.choice(GUESSES)
    base = rng.choice(POOL)
    return base if tries == 0 else f"{base} {tries}"


def playout(seats: int, options: dict, seed: int) -> Iterator:
    """Every state of one seeded playout, the initial one first and the final one last."""
    rng = random.Random(f"spy-playout:{seats}:{seed}")
    state = SpyGame(options, seats).new_initial_state(seed)
    yield state
    while not state.is_terminal():
        seat = rng.choice(state.current_seats())
        legal, texts = state.legal_actions(seat), state.text_actions(seat)
        if legal and (not texts or rng.random() < 0.15 or legal[0].id.startswith("vote")):
            state.apply_action(seat, rng.choice(legal).id)
        else:
            spec = texts[0] if len(texts) == 1 or rng.random() < 0.8 else rng.choice(texts[1:])
            for tries in range(50):
                try:
                    state.apply_action(seat, spec.id, _text(state, seat, spec.id, rng, tries))
                    break
                except IllegalActionError:
                    continue
            else:
                raise AssertionError(f"no text accepted for {spec.id}")
        yield state
