"""Pit's cards: the commodities, their corner values, decks, hands as counters, and their wording.

A hand is a dict ``{card: count}`` without zero entries, so JSON keeps it small and comparisons are exact.
A *bundle* (what an offer or an answer puts on the table) is a hand too: some cards of one commodity and
optionally the Bull and/or the Bear.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

BULL, BEAR = "bull", "bear"
SPECIALS = (BULL, BEAR)
CARDS_PER_COMMODITY = 9
MAX_OFFER = 4
SPECIAL_PENALTY = 20

# The classic pack (Winning Moves' 100th anniversary edition), highest value first: a game uses one
# commodity per seat, taken from the top of this list.
CLASSIC = (("wheat", 100), ("barley", 85), ("corn", 75), ("rye", 70), ("oats", 60), ("hay", 50), ("flax", 40))
# GameBench's pit.py deck: four commodities whatever the number of players (Soyabeans from the deluxe pack).
GAMEBENCH = (("wheat", 100), ("barley", 85), ("corn", 75), ("soyabeans", 55))

VALUES = dict(CLASSIC) | dict(GAMEBENCH)
NAMES = {card: card.capitalize() for card in VALUES} | {BULL: "Bull", BEAR: "Bear"}


def commodities_for(num_seats: int, gamebench_deck: bool) -> tuple[str, ...]:
    if gamebench_deck:
        return tuple(name for name, _ in GAMEBENCH)
    return tuple(name for name, _ in CLASSIC[:num_seats])


def build_deck(commodities: Iterable[str], bull_and_bear: bool) -> list[str]:
    deck = [c for c in commodities for _ in range(CARDS_PER_COMMODITY)]
    if bull_and_bear:
        deck += list(SPECIALS)
    return deck


def counter(cards: Iterable[str]) -> dict[str, int]:
    hand: dict[str, int] = {}
    for card in cards:
        hand[card] = hand.get(card, 0) + 1
    return hand


def size(hand: Mapping[str, int]) -> int:
    return sum(hand.values())


def add(hand: dict[str, int], bundle: Mapping[str, int]) -> None:
    for card, n in bundle.items():
        hand[card] = hand.get(card, 0) + n


def remove(hand: dict[str, int], bundle: Mapping[str, int]) -> None:
    for card, n in bundle.items():
        left = hand.get(card, 0) - n
        if left < 0:
            raise ValueError(f"hand lacks {n} {card}")
        if left:
            hand[card] = left
        else:
            hand.pop(card, None)


def minus(hand: Mapping[str, int], bundle: Mapping[str, int] | None) -> dict[str, int]:
    """The cards of ``hand`` not in ``bundle`` (what is free once an offer's cards are set aside)."""
    free = dict(hand)
    if bundle:
        remove(free, bundle)
    return free


# Display order: commodities by value (highest first), then Bull, then Bear.
_RANK = {card: i for i, card in enumerate([*sorted(VALUES, key=lambda c: -VALUES[c]), BULL, BEAR])}


def ordered(hand: Mapping[str, int]) -> list[str]:
    """Cards of a hand in display order."""
    return sorted((c for c, n in hand.items() if n), key=_RANK.__getitem__)


def words(bundle: Mapping[str, int]) -> str:
    """'3 Wheat', '2 Wheat + Bull', 'Bear'."""
    parts = []
    for card in ordered(bundle):
        n = bundle[card]
        parts.append(NAMES[card] if card in SPECIALS else f"{n} {NAMES[card]}")
    return " + ".join(parts)


# --- bundle ids: how the cards of an action are written in its id ('wheat', 'wheat+bull', 'bull+bear') ------
def bundle_id(commodity: str | None, specials: Iterable[str]) -> str:
    return "+".join([*([commodity] if commodity else []), *specials])


def parse_bundle(count: int, text: str, commodities: Iterable[str]) -> dict[str, int]:
    """The bundle ``count`` cards written ``text`` stand for; ValueError when the shape is not allowed."""
    names = text.split("+")
    specials = [n for n in names if n in SPECIALS]
    plain = [n for n in names if n not in SPECIALS]
    if len(set(specials)) != len(specials) or len(plain) > 1 or any(p not in commodities for p in plain):
        raise ValueError(f"bad bundle {text!r}")
    rest = count - len(specials)
    if plain and rest < 1 or not plain and rest != 0:
        raise ValueError(f"bad bundle {text!r} of {count}")
    bundle = {s: 1 for s in specials}
    if plain:
        bundle[plain[0]] = rest
    return bundle


def bundles(free: Mapping[str, int], counts: Iterable[int]) -> list[tuple[int, str]]:
    """Every (count, bundle id) that ``free`` cards can make with a total in ``counts``, in a stable order:
    one commodity (or none) plus any of the specials held."""
    wanted = sorted(set(counts))
    held_specials = [s for s in SPECIALS if free.get(s)]
    special_sets: list[tuple[str, ...]] = [()]
    for s in held_specials:
        special_sets += [(*chosen, s) for chosen in special_sets]
    result = []
    for commodity in [*[c for c in ordered(free) if c not in SPECIALS], None]:
        for chosen in special_sets:
            for total in wanted:
                plain = total - len(chosen)
                if commodity is None and (plain != 0 or not chosen):
                    continue
                if commodity is not None and not 1 <= plain <= free[commodity]:
                    continue
                result.append((total, bundle_id(commodity, chosen)))
    return result
