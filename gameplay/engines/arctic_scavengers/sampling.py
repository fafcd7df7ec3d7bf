"""Arctic Scavengers' information-set sampler (``State.sample_information_state``): the hidden cards drawn anew for
one seat from what it has seen and the generator alone.

What is public: which cards each tribe owns (every card gained or lost is shown: hires, cards kept from a dig,
prizes, trashed cards), its face-up discard pile, the size of its deck, hand and face-down skirmish cards, and so
the cards of its deck and hand (or skirmish cards) together; the mercenary supply; the trashed Refugees; the cards
of the junkyard other than contested resources (they enter and leave it face up). A sample keeps all of that and
draws, for each other tribe, which of its hidden cards are in its hand (or face down for the skirmish), those known
to be there (``held_known``) included, and its deck's order; the seat's own deck order; and the order of the
junkyard (the places the seat saw in its own digs kept), with the contested resources nobody has seen: the rest of
the contested pile (its top kept for the Initiator who peeked at it), the prizes nobody won, and the resources left
out of a shortened pile. The draw is uniform given those facts; what it does not keep is spelled out in
knowledge.py (bounds that a face-up card may have loosened) and in the README.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from .cards import CARDS, JUNKYARD_BOX, MERCENARY_BOX, PERSON, STARTING_DECK, sort_keys
from .knowledge import CONTESTED_KINDS, see
from .setup import contested_cards

if TYPE_CHECKING:
    from .game import ArcticState

TRIES = 20  # hands to deal the acting tribe before the cards its open step needs are put in first


def sample_state(state: ArcticState, seat: int, rng: random.Random) -> ArcticState:
    n = state.game.num_seats
    sample = object.__new__(type(state))
    sample.__dict__.update(state.__dict__)
    sample.log = list(state.log)  # every action id names only cards played face up
    sample.seed = rng.getrandbits(62)
    sample.rng_draws = 0  # chance to come is drawn from the new seed alone
    # Face-up piles as multisets (their order follows hands the seat never saw, so it is put in table order).
    sample.discards = [sort_keys(d) for d in state.discards]
    sample.hands, sample.kept, sample.decks = [], [], []
    for p in range(n):
        hand, kept, deck = _tribe(state, seat, p, rng)
        sample.hands.append(hand)
        sample.kept.append(kept)
        sample.decks.append(deck)
    _junkyard_and_contested(state, sample, seat, rng)
    sample.supply = dict(state.supply)
    sample.removed = list(state.removed)
    sample.used = list(state.used)
    sample.specials_used = dict(state.specials_used)
    sample.skirmishes_won = list(state.skirmishes_won)
    sample.last_public = list(state.last_public)
    sample.held_known = [list(k) for k in state.held_known]  # public
    # The seat's own memory of the junkyard stays; the others' rests on digs it did not see, so it is forgotten.
    sample.junk_known = [[list(e[0]), list(e[1])] if o == seat else [[], []] for o, e in enumerate(state.junk_known)]
    return sample


def _tribe(state: ArcticState, seat: int, p: int, rng: random.Random) -> tuple[list, list, list]:
    """Tribe ``p``'s hand, face-down skirmish cards and deck in the sample. A hand and face-down cards are never
    both held (keeping empties the hand; the next round starts by discarding both)."""
    hand, kept, deck = state.hands[p], state.kept[p], state.decks[p]
    if p == seat:
        return sort_keys(hand), sort_keys(kept), _shuffled(deck, rng)
    holding = hand if hand or state.revealed else kept
    known = state.held_known[p] if holding else []
    unseen = Counter(deck) + Counter(holding)
    unseen.subtract(known)
    drawn = len(holding) - len(known)
    need = _needed(state, p) if p == state.acting_seat() else None
    for _ in range(1 if need is None else TRIES):
        cards = _shuffled(unseen.elements(), rng)
        held, rest = list(known) + cards[:drawn], cards[drawn:]
        if need is None or need.holds(held):
            break
    else:  # a hand that can go on is rare here: put in the cards it needs first, then deal the rest
        forced = need.pick(sort_keys(known), sort_keys(unseen.elements()), rng)
        unseen.subtract(forced)
        cards = _shuffled(unseen.elements(), rng)
        cut = drawn - len(forced)
        held, rest = list(known) + forced + cards[:cut], cards[cut:]
    held = sort_keys(held)
    return (held, sort_keys(kept), rest) if holding is hand else ([], held, rest)


class _Need:
    """What the acting tribe's hidden hand must hold for its open step to go on, as its own moves showed: a person
    able to do the action it opened (before one is added), or the medicine still owed for a hire."""

    def __init__(self, action: str | None = None, owed: int = 0):
        self.action, self.owed = action, owed

    def _serves(self, key: str) -> bool:
        card = CARDS[key]
        return card.kind == PERSON and card.can(self.action) if self.action else card.medicine > 0

    def holds(self, held: list[str]) -> bool:
        if self.action:
            return any(self._serves(k) for k in held)
        return sum(CARDS[k].medicine for k in held) >= self.owed

    def pick(self, known: list[str], pool: list[str], rng: random.Random) -> list[str]:
        """Cards of ``pool`` to add to ``known`` so that it holds: one random able person; or medicine, the
        strongest first (so that it fits in the fewest cards, as the real hand does)."""
        if self.action:
            return [] if self.holds(known) else [rng.choice([k for k in pool if self._serves(k)])]
        picked: list[str] = []
        for key in sorted((k for k in pool if self._serves(k)), key=lambda k: -CARDS[k].medicine):
            if self.holds(known + picked):
                break
            picked.append(key)
        return picked


def _needed(state: ArcticState, p: int) -> _Need | None:
    step = state.step
    if step.get("mode") == "build" and not any(CARDS[k].kind == PERSON for k in step["cards"]):
        return _Need(action=step["action"])
    if step.get("mode") == "pay":
        return _Need(owed=step["owed"])
    return None


def _shuffled(cards, rng: random.Random) -> list[str]:
    """``cards`` in table order, then shuffled: the result depends on the multiset and the generator only."""
    result = sort_keys(cards)
    rng.shuffle(result)
    return result


def _junkyard_and_contested(state: ArcticState, sample: ArcticState, seat: int, rng: random.Random) -> None:
    """The junkyard (and the cards being dug, which came from its top), the contested pile and the peek."""
    digging = state.step.get("mode") == "dig"
    dug = len(state.step["cards"]) if digging else 0
    length = dug + len(state.junkyard)
    positions, extra = state.junk_known[seat][0] or [None] * length, state.junk_known[seat][1]
    if digging and state.acting_seat() == seat:  # what the seat is looking at now (known already, in any state)
        positions, extra = see(positions, extra, state.step["cards"])
    peeked = state.peek if state.peek is not None and state.initiator == seat else None

    unseen = _unplaced(state)
    unseen.subtract(k for k in positions if k is not None)
    unseen.subtract(extra)
    if peeked is not None:
        unseen[peeked] -= 1
    # Cards other than contested resources outside the tribes and the supply are all in the junkyard.
    junk = sort_keys(k for k in unseen.elements() if k not in CONTESTED_KINDS) + sort_keys(extra)
    resources = _shuffled([k for k in unseen.elements() if k in CONTESTED_KINDS], rng)
    blanks = positions.count(None)
    wanted = blanks - len(junk)
    junk += resources[:wanted]
    rng.shuffle(junk)
    fill = iter(junk)
    ext = [k if k is not None else next(fill) for k in positions]
    contested = resources[wanted:wanted + len(state.contested) - (peeked is not None)]
    if peeked is not None:
        contested.insert(0, peeked)
    if digging:
        sample.step = {**state.step, "cards": ext[:dug]}
    else:
        sample.step = _copy_step(state.step)
    sample.junkyard = ext[dug:]
    sample.contested = contested
    sample.peek = contested[0] if state.peek is not None else None


def _copy_step(step: dict) -> dict:
    return {k: list(v) if isinstance(v, list) else v for k, v in step.items()}


def _unplaced(state: ArcticState) -> Counter:
    """Every card of the game not in a tribe's zones, the supply or out of the game (trashed Refugees): those in
    the junkyard, being dug, in the contested pile or left out of it. A public count: it is the box less public
    counts (what each tribe owns is public, see the module docstring)."""
    n = state.game.num_seats
    total = Counter(MERCENARY_BOX) + Counter(JUNKYARD_BOX)
    total.update(contested_cards(state.game.options["gamebench_rounds"]))
    total["refugee"] += STARTING_DECK.count("refugee") * n  # the starting decks' other cards come from the boxes
    total.subtract(state.supply)
    total.subtract(state.removed)
    for p in range(n):
        total.subtract(state.owned(p))
    return total
