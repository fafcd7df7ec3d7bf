"""Pit's market rules on plain data: which actions a hand allows, corners, and what a corner scores.

Action ids (the cards are in the id, so ids are private to their seat; labels and observations are what others
read, see text.py):
- ``offer:<n>:<bundle>``: stand an offer of n cards, e.g. ``offer:3:wheat``, ``offer:2:wheat+bull``, ``offer:1:bear``;
- ``accept:<seat>:<n>:<bundle>``: take seat's standing offer, giving n cards (n = the offer's count unless
  trades may be unequal);
- ``corner:<commodity>``, ``cancel``, ``pass``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import BEAR, BULL, MAX_OFFER, SPECIAL_PENALTY, SPECIALS, VALUES, bundles, minus, size

PASS, CANCEL = "pass", "cancel"


@dataclass(frozen=True)
class MarketRules:
    """The options that change what is legal and what a corner is worth."""

    commodities: tuple[str, ...]
    corner_size: int
    unequal_trades: bool
    bear_penalises_corner: bool  # GameBench: the Bear does not block; the cornering hand pays for it


def corner_value(rules: MarketRules, hand: Mapping[str, int], commodity: str) -> int:
    """Points a corner in ``commodity`` would score for ``hand`` (0: not a corner). Bull is wild; a full set plus
    the Bull is a double corner."""
    held = hand.get(commodity, 0)
    bull = hand.get(BULL, 0) > 0
    if held >= rules.corner_size:
        return VALUES[commodity] * (2 if bull else 1)
    if bull and held == rules.corner_size - 1:
        return VALUES[commodity]
    return 0


def corners(rules: MarketRules, hand: Mapping[str, int]) -> list[str]:
    """Commodities this hand may call a corner in (none while it holds the Bear, under the classic rule)."""
    if hand.get(BEAR) and not rules.bear_penalises_corner:
        return []
    return [c for c in rules.commodities if corner_value(rules, hand, c)]


def penalties(rules: MarketRules, hands: Sequence[Mapping[str, int]], cornerer: int) -> dict[int, int]:
    """Points lost by each penalised seat when ``cornerer`` calls a corner."""
    result: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        if rules.bear_penalises_corner:
            if seat == cornerer and hand.get(BEAR):
                result[seat] = -SPECIAL_PENALTY
            continue
        lost = 0
        if hand.get(BEAR):
            lost -= SPECIAL_PENALTY
        if hand.get(BULL) and seat != cornerer:
            lost -= SPECIAL_PENALTY
        if lost:
            result[seat] = lost
    return result


def legal_ids(rules: MarketRules, seat: int, hands: Sequence[Mapping[str, int]],
              offers: Sequence[Mapping[str, int] | None]) -> list[str]:
    hand = hands[seat]
    ids = [f"corner:{c}" for c in corners(rules, hand)]
    # A new offer replaces the standing one, so the whole hand is available to it.
    ids += [f"offer:{n}:{b}" for n, b in bundles(hand, range(1, MAX_OFFER + 1))]
    free = minus(hand, offers[seat])  # an answer may not use the cards of one's own offer
    for other, offer in enumerate(offers):
        if other == seat or offer is None:
            continue
        counts = range(1, size(free) + 1) if rules.unequal_trades else [size(offer)]
        ids += [f"accept:{other}:{n}:{b}" for n, b in bundles(free, counts) if _answer_allowed(rules, b)]
    if offers[seat] is not None:
        ids.append(CANCEL)
    ids.append(PASS)
    return ids


def _answer_allowed(rules: MarketRules, bundle_text: str) -> bool:
    """GameBench's unequal answers name one commodity only (its specials travel with offers only); the equal
    answer of the published game may carry the Bull or Bear like an offer."""
    if not rules.unequal_trades:
        return True
    return not any(part in SPECIALS for part in bundle_text.split("+"))
