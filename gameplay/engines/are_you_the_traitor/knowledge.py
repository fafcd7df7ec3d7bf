"""Card facts: which treasure cards each seat can be sure another seat holds, kept for sampling information sets.

Treasure cards are secret, but a seat learns some of another's cards on the way: the victim of a Magic Ring sees the
card its thief took, and once the spent Magic Rings have been reshuffled into a new deck every card drawn from it is a
Magic Ring, which everybody can tell. A sample of a seat's information set (sampling.py) deals the unseen cards
around these facts, so the state keeps them as ``card_facts``: a sorted list of ``[viewer, holder, card]``, one per
card ``viewer`` is sure ``holder`` holds (never about itself: a seat knows its whole hand). Viewer ``num_seats`` is
the public: what anybody can be sure of from public events alone. The list is short (most games have none), so it
costs a clone next to nothing.

Every fact is a sound lower bound: the holder really holds at least those cards. When a random theft the viewer did
not see may have taken a known card, the facts about the victim shrink to what surely survives it (one card of each
kind fewer), so no fact is ever wrong; what the shrinking forgets is the one approximation (see the README).
"""

from __future__ import annotations

from collections import defaultdict

from .deck import RING, sorted_cards

Facts = list[list]  # [viewer, holder, card]
_Grouped = dict[tuple[int, int], list[str]]


def held_by(facts: Facts, viewer: int, num_seats: int) -> list[list[str]]:
    """Per holder, the sorted cards ``viewer`` (``num_seats``: the public) is sure it holds."""
    result: list[list[str]] = [[] for _ in range(num_seats)]
    for v, holder, card in facts:
        if v == viewer:
            result[holder].append(card)
    return [sorted_cards(cards) for cards in result]


def _grouped(facts: Facts) -> _Grouped:
    grouped: _Grouped = defaultdict(list)
    for viewer, holder, card in facts:
        grouped[viewer, holder].append(card)
    return grouped


def _flat(grouped: _Grouped) -> Facts:
    return [[viewer, holder, card] for (viewer, holder) in sorted(grouped)
            for card in sorted_cards(grouped[viewer, holder])]


def _without(cards: list[str], card: str) -> list[str]:
    """``cards`` less one copy of ``card`` (unchanged when it holds none)."""
    if card not in cards:
        return cards
    result = list(cards)
    result.remove(card)
    return result


def _one_of_each_fewer(cards: list[str]) -> list[str]:
    """What surely remains of a known sorted multiset after one unknown card left it: one of each kind fewer."""
    return [c for i, c in enumerate(cards) if i > 0 and cards[i - 1] == c]


def note_public_draw(facts: Facts, num_seats: int, drawer: int, card: str) -> Facts:
    """A card everybody knows ``drawer`` took (a draw from a deck of Magic Rings only)."""
    return _flat_with(facts, [[viewer, drawer, card] for viewer in range(num_seats + 1) if viewer != drawer])


def _flat_with(facts: Facts, more: Facts) -> Facts:
    grouped = _grouped(facts)
    for viewer, holder, card in more:
        grouped[viewer, holder].append(card)
    return _flat(grouped)


def note_steal(facts: Facts, num_seats: int, thief: int, victim: int, card: str, victim_held: int) -> Facts:
    """``thief`` spent a Magic Ring and took ``card`` at random from ``victim``, who held ``victim_held`` cards.

    The two of them see the card; everybody else sees only that a ring was spent and some card moved."""
    grouped = _grouped(facts)
    for viewer in range(num_seats + 1):
        if viewer != thief:
            grouped[viewer, thief] = _without(sorted_cards(grouped[viewer, thief]), RING)
        if viewer == thief:
            grouped[viewer, victim] = _without(grouped[viewer, victim], card)  # the card, or a copy of it, left
        elif viewer == victim:
            grouped[viewer, thief] = [*grouped[viewer, thief], card]
        else:
            known = sorted_cards(grouped[viewer, victim])
            if known and len(known) == victim_held and len(set(known)) == 1:
                grouped[viewer, victim] = known[1:]  # its whole hand was known and all alike: so is the card taken
                grouped[viewer, thief] = [*grouped[viewer, thief], known[0]]
            else:
                grouped[viewer, victim] = _one_of_each_fewer(known)
    return _flat(grouped)


def as_seen_by(facts: Facts, seat: int, num_seats: int) -> Facts:
    """The facts of a sample of ``seat``'s information set: its own, and the public's for everybody else (what the
    other seats know besides is theirs; the public facts hold in the sample, which keeps every fact of ``seat``,
    and those are never fewer than the public's)."""
    public = [[holder, card] for viewer, holder, card in facts if viewer == num_seats]
    mine = [fact for fact in facts if fact[0] == seat]
    others = [[viewer, holder, card] for viewer in range(num_seats + 1) if viewer != seat
              for holder, card in public if holder != viewer]
    return _flat_with(mine, others)
