"""The table at the start of a game: supply piles, junkyard, contested pile and each tribe's starting deck."""

from __future__ import annotations

import random

from .cards import (
    CONTESTED_BOX,
    GAMEBENCH_CONTESTED,
    JUNKYARD_BOX,
    MERCENARIES,
    MERCENARY_BOX,
    STARTING_DECK,
)


def supply_counts(num_seats: int) -> dict[str, int]:
    """Mercenary piles after the starting decks took their Scavengers and Brawler from them."""
    counts = dict(MERCENARY_BOX)
    taken = {"scavenger": STARTING_DECK.count("scavenger"), "brawler": STARTING_DECK.count("brawler")}
    for key, per_seat in taken.items():
        counts[key] -= per_seat * num_seats
    return {key: counts[key] for key in MERCENARIES}


def junkyard_cards(num_seats: int) -> list[str]:
    """The junkyard after the starting decks took one Spear and one Shovel each (unshuffled)."""
    counts = dict(JUNKYARD_BOX)
    counts["spear"] -= num_seats
    counts["shovel"] -= num_seats
    return [key for key, n in counts.items() for _ in range(n)]


def contested_cards(gamebench: bool) -> list[str]:
    """The contested pile (unshuffled): the box's 14, or GameBench's 5 (the state keeps the top
    ``Game.contested_size()`` of it after the shuffle)."""
    if gamebench:
        return list(GAMEBENCH_CONTESTED)
    return [key for key, n in CONTESTED_BOX.items() for _ in range(n)]


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    cards = list(cards)
    rng.shuffle(cards)
    return cards
