"""The 18 battle cards, the three theaters and the Supreme Commander withdrawal charts.

Card ids are a theater letter plus the printed strength ("A3" is Air's Maneuver). The ids are also the strings
the engine declares as secrets, so every text that names a card names it by this id ("A3 Maneuver"), and
nothing else in any text may look like an id (rules text spells cards out as "Air 3").
"""

from __future__ import annotations

from dataclasses import dataclass

TYPES = ("A", "L", "S")
THEATER_NAMES = {"A": "Air", "L": "Land", "S": "Sea"}
INSTANT, ONGOING, NONE = "instant", "ongoing", "none"


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    kind: str  # INSTANT, ONGOING or NONE
    effect: str  # short wording of the ability, our own

    @property
    def type(self) -> str:
        return self.id[0]

    @property
    def strength(self) -> int:
        return int(self.id[1])

    @property
    def title(self) -> str:
        return f"{self.id} {self.name}"


_MANEUVER = "Flip one uncovered card (either side) in a theater adjacent to this one."
CARDS: dict[str, Card] = {c.id: c for c in (
    Card("A1", "Support", ONGOING, "+3 to your total in each theater adjacent to this one."),
    Card("A2", "Air Drop", INSTANT, "Your next play may go face up into any theater."),
    Card("A3", "Maneuver", INSTANT, _MANEUVER),
    Card("A4", "Aerodrome", ONGOING, "Your cards of strength 3 or less may be played face up in any theater."),
    Card("A5", "Containment", ONGOING, "Any card played face down (by either player) is destroyed."),
    Card("A6", "Heavy Bombers", NONE, "No ability."),
    Card("L1", "Reinforce", INSTANT, "Put the top deck card face down into a theater adjacent to this one."),
    Card("L2", "Ambush", INSTANT, "Flip one uncovered card (either side) in any theater."),
    Card("L3", "Maneuver", INSTANT, _MANEUVER),
    Card("L4", "Cover Fire", ONGOING, "Your cards under this one in its stack are strength 4."),
    Card("L5", "Disrupt", INSTANT, "You flip one of your uncovered cards, then your opponent flips one of theirs."),
    Card("L6", "Heavy Tanks", NONE, "No ability."),
    Card("S1", "Transport", INSTANT, "You may move one of your cards to another theater."),
    Card("S2", "Escalation", ONGOING, "Your face-down cards are strength 4."),
    Card("S3", "Maneuver", INSTANT, _MANEUVER),
    Card("S4", "Redeploy", INSTANT, "You may return one of your face-down cards to hand; if you do, play again."),
    Card("S5", "Blockade", ONGOING, "A card played into an adjacent theater already holding 3+ cards is destroyed."),
    Card("S6", "Super Battleship", NONE, "No ability."),
)}
ALL_IDS = tuple(CARDS)

SUPPORT, AIR_DROP, AERODROME, CONTAINMENT = "A1", "A2", "A4", "A5"
REINFORCE, AMBUSH, COVER_FIRE, DISRUPT = "L1", "L2", "L4", "L5"
TRANSPORT, ESCALATION, REDEPLOY, BLOCKADE = "S1", "S2", "S4", "S5"
MANEUVERS = ("A3", "L3", "S3")

FACE_DOWN_STRENGTH = 2
BOOSTED_STRENGTH = 4  # a face-down card under Escalation, or any card under Cover Fire
SUPPORT_BONUS = 3
BATTLE_WIN_VP = 6
HAND_SIZE = 6

# VP the opponent scores when a seat withdraws, by the cards left in the withdrawing seat's hand: each Supreme
# Commander card carries its own chart (index = cards left, 0..6).
WITHDRAW_CHART = {
    "first": (6, 4, 3, 3, 2, 2, 2),
    "second": (6, 6, 4, 3, 3, 2, 2),
}


def withdraw_points(withdrawer_is_first: bool, cards_left: int) -> int:
    chart = WITHDRAW_CHART["first" if withdrawer_is_first else "second"]
    return chart[min(max(cards_left, 0), len(chart) - 1)]


def adjacent(pos: int, other: int) -> bool:
    """Theater positions 0-1-2 in a row: only neighbours of the middle are adjacent."""
    return abs(pos - other) == 1


def neighbours(pos: int) -> list[int]:
    return [p for p in range(3) if adjacent(pos, p)]
