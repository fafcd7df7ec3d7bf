"""What the seats of Arctic Scavengers know of hidden cards beyond their own view, kept in the state for the
information-set sampler (sampling.py). Pure functions over the state's two fields:

- ``held_known[seat]``: cards everyone knows are in that seat's hand (or its face-down skirmish cards). Which cards a
  tribe owns is public (every card it gains or loses is shown), and its discard pile is face up, so the cards of its
  deck and hand together are known; once its deck runs out they are all in its hand, and the cards it draws after a
  reshuffle join them. A card leaving the hand face up is taken off the bound when it is on it (it might have been
  one drawn since, so the bound stays a lower bound). An emptied hand forgets it.
- ``junk_known[observer] = [positions, extra]``: what a seat saw of the junkyard. ``positions`` lines up with the
  cards being dug (while a dig is open) followed by the junkyard, top first: the card a seat knows at each place, or
  None (``[]`` while it knows none); a digger sees what it dug, and the cards it did not keep go to the bottom in
  order. ``extra`` lists contested resources (the only cards whose place in the junkyard can be unknown to everyone)
  the seat knows are in the junkyard somewhere it cannot point to: after a shuffle, a trashed one, or the prize of
  a skirmish nobody won that the Initiator peeked at.
"""

from __future__ import annotations

from .cards import CONTESTED_BOX, GAMEBENCH_CONTESTED

CONTESTED_KINDS = frozenset(CONTESTED_BOX) | frozenset(GAMEBENCH_CONTESTED)


def fresh(num_seats: int) -> tuple[list[list[str]], list[list[list]]]:
    return [[] for _ in range(num_seats)], [[[], []] for _ in range(num_seats)]


# --- hands ----------------------------------------------------------------------------------------------------
def deck_ran_out(state, seat: int) -> None:
    """The seat's deck is empty: every card of its deck and hand is now in its hand, and all of it is known."""
    state.held_known[seat] = list(state.hands[seat])


def left_hand(state, seat: int, key: str) -> None:
    """A card left the seat's hand face up."""
    if key in state.held_known[seat]:
        state.held_known[seat].remove(key)


def hand_emptied(state, seat: int) -> None:
    state.held_known[seat] = []


# --- the junkyard -------------------------------------------------------------------------------------------
def dug(state, seat: int, cards: list[str], length: int) -> None:
    """``seat`` looks at ``cards``, the top of a junkyard of ``length`` cards (dug ones included)."""
    entry = state.junk_known[seat]
    entry[0], entry[1] = see(entry[0] or [None] * length, entry[1], cards)


def see(positions: list, extra: list[str], cards: list[str]) -> tuple[list, list[str]]:
    """Knowledge after seeing ``cards`` at the top: those places become known, and a resource counted as somewhere
    unknown may be one of the cards now seen, so each seen resource no longer counts there."""
    newly = [k for k, was in zip(cards, positions[:len(cards)], strict=True) if was is None]
    rest = list(extra)
    for key in newly:
        if key in rest:
            rest.remove(key)
    return list(cards) + positions[len(cards):], rest


def dig_returned(state, count: int, kept: str | None) -> None:
    """The ``count`` dug cards less ``kept`` (the first of its kind among them) went to the bottom of the junkyard,
    in order. A seat that cannot tell which place the kept card left loses the places of the returned cards (the
    contested resources among them stay known as somewhere in the junkyard) and, when it counted on one of those
    somewhere in the junkyard, that one (it may be the one kept)."""
    for entry in state.junk_known:
        positions, extra = entry
        if not positions:
            if kept is not None and kept in extra:
                extra.remove(kept)
            continue
        head, tail = positions[:count], positions[count:]
        if kept is not None:
            at = head.index(kept) if kept in head else None
            if at is not None and None not in head[:at]:
                head.pop(at)
            else:
                extra.extend(k for k in head if k in CONTESTED_KINDS)
                head = [None] * (count - 1)
                if kept in extra:
                    extra.remove(kept)
        merged = tail + head
        entry[0] = merged if any(k is not None for k in merged) else []
        entry[1] = sorted(extra)


def shuffled(state, added: list[str], seen_by: int | None = None, unseen: str | None = None) -> None:
    """Cards ``added`` face up, and ``unseen`` face down (a prize nobody won, known only to ``seen_by``, the
    Initiator who peeked at it), joined the junkyard and it was shuffled: every place is forgotten; the contested
    resources known stay known as somewhere in it."""
    public = [k for k in added if k in CONTESTED_KINDS]
    for observer, entry in enumerate(state.junk_known):
        extra = entry[1] + [k for k in entry[0] if k in CONTESTED_KINDS] + public
        if unseen is not None and observer == seen_by:
            extra.append(unseen)
        entry[0], entry[1] = [], sorted(extra)
