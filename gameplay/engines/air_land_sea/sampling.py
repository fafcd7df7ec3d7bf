"""Drawing a state from one seat's information set (``GameSpec.information_sampling``), for search agents.

Each battle deals all 18 cards anew, so only the battle on the table matters. A card's place is known to a seat
when the seat holds it, has it on its own side of the board, saw it face up this battle (``seen``: the engine
shows such a card wherever it lies), saw it destroyed face down from its own side (``buried``: the deck only
grows at the bottom and is drawn from the top, so the seat can follow it), or is looking at it as Reinforce's top
deck card. Every other card is unknown, and every unknown card is equally likely in every unknown place: the
other seat's hand, its face-down cards, the deck's unknown slots, and (``gamebench_destroyed_vanish``) out of the
game. The sample deals the unknown cards, in sorted order, to those places with the generator alone, so it never
reads an unknown card (two states that look the same to the seat give one sample per generator).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..api import ActionRecord
from .cards import ALL_IDS

if TYPE_CHECKING:
    from .state import AirLandSeaState


def known_cards(state: AirLandSeaState, seat: int) -> set[str]:
    """The cards whose place ``seat`` knows (see the module's docstring)."""
    known = set(state.hands[seat])
    known.update(state.seen)
    known.update(state.buried[seat])
    for pos in range(3):
        known.update(card["id"] for card in state.stacks[pos][seat])
    peek = state.peek()
    if peek is not None and state.decision["seat"] == seat:
        known.add(peek)
    return known


def _face_down_play(record: ActionRecord) -> bool:
    """A play whose card the other seat did not see (its id names a hand slot, which stays hidden too)."""
    return record.action_id.startswith("play:") and record.action_id.endswith(":down")


def sample_state(state: AirLandSeaState, seat: int, rng: random.Random) -> AirLandSeaState:
    other = 1 - seat
    known = known_cards(state, seat)
    sample = state.clone()
    # The unknown places, in an order the seat can name: slots of the other hand, face-down cards by theater and
    # height, deck slots from the top.
    hand_known = sorted(c for c in state.hands[other] if c in known)
    hand_unknown = len(state.hands[other]) - len(hand_known)
    board_slots = [(pos, i) for pos in range(3) for i, card in enumerate(state.stacks[pos][other])
                   if card["id"] not in known]
    deck_slots = [i for i, c in enumerate(state.deck) if c not in known]
    pool = [c for c in ALL_IDS if c not in known]  # ALL_IDS is sorted: the pool's order reads no unknown card
    rng.shuffle(pool)
    drawn = iter(pool)
    fresh_hand = [next(drawn) for _ in range(hand_unknown)]
    for pos, i in board_slots:
        sample.stacks[pos][other][i]["id"] = next(drawn)
    for i in deck_slots:
        sample.deck[i] = next(drawn)
    gone = list(drawn)  # unknown cards out of the game (destroyed with gamebench_destroyed_vanish)
    hand = hand_known + fresh_hand
    rng.shuffle(hand)  # the other hand's order is hidden as well
    sample.hands[other] = hand
    sample.buried[other] = _buried(state, sample, other, known, fresh_hand, gone)
    for event in sample.events:  # the other seat's own wording names its face-down cards
        event["texts"][other] = event["public"]
    sample.log = state.redacted_log(seat, _face_down_play)
    sample.seed = rng.getrandbits(62)
    sample.rng_draws = 0
    return sample


def _buried(state: AirLandSeaState, sample: AirLandSeaState, other: int, known: set[str], fresh_hand: list[str],
            gone: list[str]) -> list[str]:
    """The other seat's record of its face-down cards destroyed, renamed to the cards the sample put in their
    places. A place the seat can follow (a deck slot, a face-down card) keeps its new card; one it cannot (back
    in the other hand by Redeploy, or out of the game) takes the next new card dealt there, so nothing depends on
    which unknown card it truly was."""
    names: dict[str, str] = {}
    spare_hand, spare_gone = iter(fresh_hand), iter(gone)
    result = []
    for card_id in state.buried[other]:
        if card_id in known:
            result.append(card_id)
            continue
        if card_id not in names:
            names[card_id] = _new_name(state, sample, other, card_id, spare_hand, spare_gone)
        result.append(names[card_id])
    return result


def _new_name(state, sample, other: int, card_id: str, spare_hand, spare_gone) -> str:
    if card_id in state.deck:
        return sample.deck[state.deck.index(card_id)]
    for pos in range(3):
        for i, card in enumerate(state.stacks[pos][other]):
            if card["id"] == card_id:
                return sample.stacks[pos][other][i]["id"]
    if card_id in state.hands[other]:
        return next(spare_hand)
    return next(spare_gone)
