"""The basic character deck, the teams the cards belong to, and the hostage counts per round.

Cards are kept in the state as short codes ("president", "bomber", "blue", "red", "gambler"); this module is the one
place that knows which team a code is on and how it is named, so every other module words cards through it.
"""

from __future__ import annotations

import random

PRESIDENT, BOMBER, BLUE, RED, GAMBLER = "president", "bomber", "blue", "red", "gambler"
CARD_NAMES = {PRESIDENT: "President", BOMBER: "Bomber", BLUE: "Blue Team", RED: "Red Team", GAMBLER: "Gambler"}
# Team of each card: the President sides with Blue, the Bomber with Red; the Gambler belongs to neither.
TEAM_OF = {PRESIDENT: BLUE, BLUE: BLUE, BOMBER: RED, RED: RED, GAMBLER: GAMBLER}
TEAM_NAMES = {BLUE: "Blue", RED: "Red", GAMBLER: "Grey"}
TEAM_NUMBER = {BLUE: 0, RED: 1, GAMBLER: 2}  # the ``team`` measure
TEAM_COLOURS = {BLUE: "blue", RED: "red", GAMBLER: "grey"}  # a team as a colour word (facts for pages)
ROOM_NAMES = ("Room A", "Room B")
ROUNDS = 3

# Hostages each room sends per round (3-round game), by the lowest seat count of each bracket.
HOSTAGE_TABLE = ((22, (3, 2, 1)), (11, (2, 1, 1)), (6, (1, 1, 1)))


def build_deck(seats: int) -> list[str]:
    """One card per seat: President and Bomber, equal Blue and Red Team cards, the Gambler when the count is odd."""
    gambler = seats % 2
    each = (seats - 2 - gambler) // 2
    return [PRESIDENT, BOMBER] + [BLUE] * each + [RED] * each + [GAMBLER] * gambler


def deal(seats: int, rng: random.Random) -> list[str]:
    deck = build_deck(seats)
    rng.shuffle(deck)
    return deck


def split_rooms(seats: int, rng: random.Random) -> list[int]:
    """Room index per seat: a random half (rounded down) in Room A, the rest in Room B."""
    order = list(range(seats))
    rng.shuffle(order)
    rooms = [1] * seats
    for seat in order[: seats // 2]:
        rooms[seat] = 0
    return rooms


def hostage_counts(seats: int) -> tuple[int, ...]:
    for lowest, counts in HOSTAGE_TABLE:
        if seats >= lowest:
            return counts
    raise ValueError(f"no hostage counts for {seats} seats")


def card_name(card: str) -> str:
    return CARD_NAMES[card]


def team_of(card: str) -> str:
    return TEAM_OF[card]


def colour_phrase(card: str) -> str:
    """How a colour share words a card's team ("on the Red team"; the Gambler is grey, on neither team)."""
    team = TEAM_OF[card]
    if team == GAMBLER:
        return "grey (on neither team)"
    return f"on the {TEAM_NAMES[team]} team"
