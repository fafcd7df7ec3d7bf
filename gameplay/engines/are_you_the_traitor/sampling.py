"""Sampling a seat's information set in Are You the Traitor? (``State.sample_information_state``), for search agents.

A sample is a clone in which everything the seat has not seen is dealt anew from the generator alone:

- this round's characters and Wizard alignments, while they are hidden (talk and the Key hand-off): the seat keeps
  its own, the Wizards stay where they are (public), and so do the characters the eyes-closed steps showed it (the
  Keyholder to Guards and Traitors from 6 seats, the other Traitors to a Traitor from 8) and the Keyholder once the
  hand-off makes it act; the rest are a uniform deal of the remaining characters and alignment cards. Fixed roles
  (GameBench) are public from the second round on, and at 5 seats from the start, so they stay;
- the treasure: the seat's own hand stays, every other hand keeps its (public) size and the cards the seat is sure
  it holds (knowledge.py), and the unseen cards are shuffled over the remaining places of the hands and the deck
  (after a reshuffle the deck is Magic Rings only, as everybody knows);
- the cards of the last round's draws and Magic Ring thefts the seat did not see: a card of the receiver's sampled
  hand (no rule reads them; other seats' views show them);
- the seed, so that chance to come is unknown too.

Every action of this game is public (talk, Stop calls, ring turns), so the log stays whole. Nothing here reads a
value the seat has not seen: each pool is built in a canonical order from public counts and the seat's own
knowledge before the generator shuffles it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from .deck import RING, WIZARD, alignments_offered, characters_for, sorted_cards, treasure_deck
from .knowledge import as_seen_by, held_by

if TYPE_CHECKING:
    from .game import TraitorState


def sample_state(state: TraitorState, seat: int, rng: random.Random) -> TraitorState:
    sample = state.clone()
    sample.seed = rng.getrandbits(62)
    sample.rng_draws = 0  # chance to come follows the new seed alone
    if state._roles_hidden() and not _roles_public(state):
        _deal_roles(state, sample, seat, rng)
    _deal_treasure(state, sample, seat, rng)
    return sample


def _roles_public(state: TraitorState) -> bool:
    """GameBench's fixed roles: printed in the rules at 5 seats; at other counts the first round revealed them."""
    fixed = state.game.options["gamebench_fixed_roles"]
    return fixed and (state.game.num_seats == 5 or state.last is not None)


def _deal_roles(state: TraitorState, sample: TraitorState, seat: int, rng: random.Random) -> None:
    n = state.game.num_seats
    wizards = state.wizards()  # public
    shown = set(state.known_seats(seat))  # the seat itself and what the eyes-closed steps showed it
    if state.phase == "handoff":
        shown.add(state.current_seats()[0])  # the Keyholder acts: everybody sees who must hand over the Key
    fixed = shown | set(wizards)
    left = Counter(characters_for(n))
    left.subtract(state.characters[s] for s in fixed)
    pool = sorted(left.elements())
    rng.shuffle(pool)
    for s, character in zip(sorted(set(range(n)) - fixed), pool, strict=True):
        sample.characters[s] = character
    offered = alignments_offered(n)
    if state.characters[seat] == WIZARD:
        offered.remove(state.alignments[seat])
    offered.sort()
    rng.shuffle(offered)
    for w in wizards:
        if w != seat:
            sample.alignments[w] = offered.pop()
    sample.set_aside = offered  # the alignment cards nobody was dealt


def _deal_treasure(state: TraitorState, sample: TraitorState, seat: int, rng: random.Random) -> None:
    n = state.game.num_seats
    hands, facts = state.hands, held_by(state.card_facts, seat, n)
    over = state.phase == "over"  # the end shows every hand; only the deck's order is unknown
    sure = [list(hands[h]) if over or h == seat else facts[h] for h in range(n)]
    deck_known = state.reshuffled  # the deck holds only Magic Rings since the first reshuffle
    unseen = Counter(treasure_deck())
    unseen.subtract(state.discard)  # spent Magic Rings: public
    for cards in sure:
        unseen.subtract(cards)
    if deck_known:
        unseen[RING] -= len(state.deck)
    assert min(unseen.values()) >= 0, "card facts inconsistent with the cards in play"
    pool = sorted_cards(unseen.elements())
    rng.shuffle(pool)
    at = 0
    for h in range(n):
        if h != seat:
            missing = len(hands[h]) - len(sure[h])
            sample.hands[h] = sorted_cards([*sure[h], *pool[at:at + missing]])
            at += missing
    sample.deck = [RING] * len(state.deck) if deck_known else pool[at:]
    sample.card_facts = as_seen_by(state.card_facts, seat, n)
    if sample.last and not over:
        _redraw_last(sample, seat, rng)


def _redraw_last(sample: TraitorState, seat: int, rng: random.Random) -> None:
    """The last round's cards the seat did not see: a card its receiver holds in the sample (or any card)."""

    def some_card(holder: int) -> str:
        return rng.choice(sample.hands[holder] or sorted_cards(treasure_deck()))

    assert sample.last is not None
    for draw in sample.last["draws"]:
        if draw[0] != seat and draw[1] is not None:
            draw[1] = some_card(draw[0])
    for theft in sample.last["rings"]:
        if seat not in theft[:2]:
            theft[2] = some_card(theft[0])
