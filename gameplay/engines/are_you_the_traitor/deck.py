"""The cards of Are You the Traitor?: characters per seat count, Wizard alignments and the treasure deck.

The printed seat chart and treasure deck were not legible in any primary copy the fact sheet used, so both
follow its derived table (characters) and GameBench's deck (treasure); see the fact sheet's open questions.
"""

from __future__ import annotations

from collections.abc import Iterable

WIZARD, KEYHOLDER, GUARD, TRAITOR = "wizard", "keyholder", "guard", "traitor"
GOOD, EVIL = "good", "evil"

# seats -> (wizards, guards, traitors, alignment cards offered); every table has exactly one Keyholder.
CHART = {
    4: (1, 1, 1, (GOOD, EVIL)),
    5: (2, 1, 1, (GOOD, EVIL)),
    6: (2, 2, 1, (GOOD, EVIL)),
    7: (2, 3, 1, (GOOD, EVIL)),
    8: (2, 3, 2, (GOOD, EVIL)),
    9: (2, 4, 2, (GOOD, EVIL)),
    10: (3, 4, 2, (GOOD, GOOD, EVIL, EVIL)),
}
# Secret information grants of the eyes-closed steps: from these seat counts on.
KEYHOLDER_SHOWN_FROM = 6  # the Keyholder is shown to Guards and Traitors (never to Wizards)
TRAITORS_MEET_FROM = 8  # Traitors learn each other

# GameBench's 5-seat table with the same roles every round (option gamebench_fixed_roles).
GAMEBENCH_CHARACTERS = (TRAITOR, WIZARD, WIZARD, KEYHOLDER, GUARD)
GAMEBENCH_ALIGNMENTS = (None, EVIL, GOOD, None, None)


def characters_for(num_seats: int) -> list[str]:
    wizards, guards, traitors, _ = CHART[num_seats]
    return [WIZARD] * wizards + [KEYHOLDER] + [GUARD] * guards + [TRAITOR] * traitors


def alignments_offered(num_seats: int) -> list[str]:
    return list(CHART[num_seats][3])


def team_of(character: str, alignment: str | None) -> str:
    """Good: Good Wizards, the Keyholder and Guards; Evil: Evil Wizards and Traitors."""
    if character == WIZARD:
        return alignment or GOOD
    return EVIL if character == TRAITOR else GOOD


def character_name(character: str, alignment: str | None = None) -> str:
    if character == WIZARD and alignment:
        return f"{alignment.capitalize()} Wizard"
    return character.capitalize()


def winning_team(caller_character: str, caller_alignment: str | None, target_character: str,
                 target_alignment: str | None) -> str:
    """The outcome table of a Stop call (a Traitor never calls; the Keyholder only calls a Wizard)."""
    if caller_character == KEYHOLDER:  # the Key goes to a Wizard: that Wizard's side takes the round
        return target_alignment or GOOD
    if caller_character == WIZARD and caller_alignment == EVIL:  # grabbing the Key: right only on the Keyholder
        return EVIL if target_character == KEYHOLDER else GOOD
    # A Good Wizard or a Guard hunting a Traitor.
    return GOOD if target_character == TRAITOR else EVIL


# --- treasure -----------------------------------------------------------------------------------------------
RING = "magic_ring"
# key -> (name, points, copies): GameBench's deck of 42 cards worth 98 points.
TREASURE = {
    "crown_jewels": ("Crown Jewels", 5, 2),
    "platinum_pyramid": ("Platinum Pyramid", 4, 5),
    "bag_of_gold": ("Bag of Gold", 3, 12),
    "silver_goblet": ("Silver Goblet", 2, 11),
    "chest_of_copper": ("Chest of Copper", 1, 5),
    RING: ("Magic Ring", 1, 5),
    "gilded_statue": ("Gilded Statue", 0, 2),
}
_ORDER = {key: i for i, key in enumerate(TREASURE)}


def treasure_deck() -> list[str]:
    return [key for key, (_, _, copies) in TREASURE.items() for _ in range(copies)]


def value(card: str) -> int:
    return TREASURE[card][1]


def points(cards: Iterable[str]) -> int:
    return sum(value(c) for c in cards)


def card_words(card: str) -> str:
    """'Bag of Gold (3)'."""
    name, worth, _ = TREASURE[card]
    return f"{name} ({worth})"


def sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)
