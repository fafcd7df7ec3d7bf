"""Pit's information-set sampler (``State.sample_information_state``): the other hands, their standing offers and
the hidden cards of past offers and trades drawn anew for one seat, from what it has seen and the generator alone.

What a seat has seen of the current deal: its own hand, every hand's size, the size of every standing offer, the
cards it traded away and got (kept as lower bounds of the others' hands in ``PitState.known``, see knowledge.py)
and, with public commodities, every offer's and trade's cards. A sample keeps all of that and deals the unseen
cards (the deck less the seat's hand and the cards it knows are held) at random so that each hand holds what the
seat knows it holds, has its size and can make its standing offer. Deals are drawn uniformly and refused while an
offer cannot be made; after ``TRIES`` refusals (offers of four in a market where four of a kind is rare) the offers
are placed first, each a random bundle that fits, and the rest dealt around them. Constraints a seat saw in the
past that no longer show in its view nor in its bounds (an offer of four since withdrawn, which cards left a hand in
a trade it only counted) are not kept: the samples come from a slightly larger set than the information set.
The log and this hand's events hide what the seat never read: other seats' offers and answers become
``HIDDEN_ACTION`` in the log, and in the events their cards are stand-ins of the counts it read.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..api import HIDDEN_ACTION, ActionRecord
from . import text
from .cards import add, build_deck, bundles, counter, ordered, parse_bundle, remove, size

if TYPE_CHECKING:
    from .game import PitState

TRIES = 12  # uniform deals to try before the offers are placed first


def sample_state(state: PitState, seat: int, rng: random.Random) -> PitState:
    game = state.game
    n = game.num_seats
    public = game.options["gamebench_public_commodities"]
    known = state.known[seat]
    others = [p for p in range(n) if p != seat]
    # Offers stand publicly; with public commodities their cards are in ``known`` already and stay as they are.
    wanted = {p: size(state.offers[p]) for p in others if state.offers[p] is not None and not public}
    hands, chosen = _deal(state, seat, known, wanted, rng)
    offers = list(state.offers)
    for p in sorted(chosen):
        offers[p] = chosen[p]
    hands[seat] = dict(state.hands[seat])

    sample = object.__new__(type(state))
    sample.__dict__.update(state.__dict__)
    sample.seed = rng.getrandbits(62)
    sample.rng_draws = 0  # chance to come is drawn from the new seed alone
    sample.log = list(state.log) if public else _log(state.log, seat)
    sample.hands = hands
    sample.offers = offers
    sample.events, sample.latest = _events(state, seat, offers, public, rng)
    sample.known = _knowledge(state, seat, public)
    sample.totals = list(state.totals)
    sample.corners_made = list(state.corners_made)
    sample.acted = list(state.acted)
    sample.offer_started = list(state.offer_started)
    sample._forget_legal_actions()
    return sample


def _log(log: list[ActionRecord], seat: int) -> list[ActionRecord]:
    """The log as the seat read it: an offer names its cards and an answer the cards given for it, so another
    seat's offers and answers are hidden (``HIDDEN_ACTION``), except an answer to the seat's own offer (it got
    those cards) and an offer the seat took (it got those). One pass: search agents sample at every iteration."""
    result: list[ActionRecord] = []
    offer_at: dict[int, int] = {}  # per seat, where its latest offer is (the one an answer takes)
    own_offer = f"accept:{seat}:"
    for record in log:
        kind = record.action_id.partition(":")[0]
        if record.seat == seat:
            if kind == "accept":
                taken = offer_at.pop(int(record.action_id.split(":")[1]), None)
                if taken is not None:
                    result[taken] = log[taken]
            result.append(record)
        elif kind == "offer":
            offer_at[record.seat] = len(result)
            result.append(ActionRecord(record.seat, HIDDEN_ACTION))
        elif kind == "accept" and not record.action_id.startswith(own_offer):
            result.append(ActionRecord(record.seat, HIDDEN_ACTION))
        else:
            result.append(record)
    return result


# --- hands and offers -----------------------------------------------------------------------------------------
def _deal(state: PitState, seat: int, known: list[dict[str, int]], wanted: Mapping[int, int],
          rng: random.Random) -> tuple[list[dict[str, int]], dict[int, dict[str, int]]]:
    market = state.game.market
    others = [p for p in range(state.game.num_seats) if p != seat]
    pool = counter(build_deck(market.commodities, state.game.options["bull_and_bear"]))
    remove(pool, state.hands[seat])
    for p in others:
        remove(pool, known[p])
    unseen = [card for card in ordered(pool) for _ in range(pool[card])]  # canonical order, then shuffled
    room = {p: size(state.hands[p]) - size(known[p]) for p in others}
    hands: list[dict[str, int]] = [{} for _ in range(state.game.num_seats)]
    for _ in range(TRIES):
        rng.shuffle(unseen)
        start = 0
        for p in others:
            hands[p] = dict(known[p])
            add(hands[p], counter(unseen[start:start + room[p]]))
            start += room[p]
        choices = {p: bundles(hands[p], (m,)) for p, m in wanted.items()}
        if all(choices.values()):
            return hands, {p: _bundle(market, *rng.choice(choices[p])) for p in sorted(choices)}
    return _offers_first(state, known, room, wanted, pool, rng)


def _bundle(market, count: int, bundle_id: str) -> dict[str, int]:
    return parse_bundle(count, bundle_id, market.commodities)


def _offers_first(state: PitState, known: list[dict[str, int]], room: Mapping[int, int], wanted: Mapping[int, int],
                  pool: dict[str, int], rng: random.Random):
    """Choose each standing offer's cards first (a random bundle the seat can hold, backtracking when a later offer
    no longer fits), then deal the rest of the unseen cards around them. Some choice always fits: the real one."""
    market = state.game.market
    order = sorted(wanted)

    def place(i: int, left: dict[str, int], taken: dict[int, tuple[dict, dict]]):
        if i == len(order):
            return left, taken
        p = order[i]
        options = bundles(_plus(known[p], left), (wanted[p],))
        rng.shuffle(options)
        for option in options:
            bundle = _bundle(market, *option)
            extra = {c: k - known[p].get(c, 0) for c, k in bundle.items() if k > known[p].get(c, 0)}
            if size(extra) > room[p] or any(left.get(c, 0) < k for c, k in extra.items()):
                continue
            rest = dict(left)
            remove(rest, extra)
            found = place(i + 1, rest, {**taken, p: (bundle, extra)})
            if found is not None:
                return found
        return None

    found = place(0, dict(pool), {})
    if found is None:  # impossible while the bounds hold (the real hands fit them)
        raise RuntimeError("Pit: no deal fits what the seat has seen")
    left, taken = found
    unseen = [card for card in ordered(left) for _ in range(left[card])]
    rng.shuffle(unseen)
    hands: list[dict[str, int]] = [{} for _ in range(state.game.num_seats)]
    start = 0
    for p in room:
        hands[p] = dict(known[p])
        fill = room[p]
        if p in taken:
            add(hands[p], taken[p][1])
            fill -= size(taken[p][1])
        add(hands[p], counter(unseen[start:start + fill]))
        start += fill
    return hands, {p: taken[p][0] for p in order}


def _plus(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    both = dict(a)
    add(both, b)
    return both


# --- the events of the hand, as the seat may know them -----------------------------------------------------------
def _events(state: PitState, seat: int, offers: list, public: bool, rng: random.Random):
    """This hand's events with the cards the seat did not see replaced: a standing offer's by the sampled offer,
    others by cards of the same count drawn at random (past offers and trades of other seats are not sampled
    consistently with the hands; only their counts, which the seat read, are kept)."""
    commodities = state.game.market.commodities

    def stand_in(bundle: Mapping[str, int]) -> dict[str, int]:
        return {rng.choice(commodities): size(bundle)}

    last_offer = {e["s"]: i for i, e in enumerate(state.events) if e["k"] == "offer"}
    # Offers the seat took: it got their cards (the trade that took an offer follows it before the next offer).
    offered_at: dict[int, int] = {}
    seen: dict[int, Mapping[str, int]] = {}
    for i, e in enumerate(state.events):
        if e["k"] == "offer":
            offered_at[e["s"]] = i
        elif e["k"] == "trade":
            # -1 - seat: an offer made before the events kept (then still its latest event, see below)
            at = offered_at.pop(e["a"], -1 - e["a"])
            if e["b"] == seat:
                seen[at] = e["ga"]

    def redact(event: dict[str, Any], standing: bool, at: int) -> dict[str, Any]:
        if public:
            return event
        if event["k"] == "offer" and event["s"] != seat:
            shown = seen.get(at)
            if shown is None:
                shown = offers[event["s"]] if standing else stand_in(event["b"])
            return {**event, "b": shown}
        if event["k"] == "trade" and seat not in (event["a"], event["b"]):
            return {**event, "ga": stand_in(event["ga"]), "gb": stand_in(event["gb"])}
        return event

    events = [redact(e, e["k"] == "offer" and offers[e["s"]] is not None and last_offer[e["s"]] == i, i)
              for i, e in enumerate(state.events)]
    # A seat's latest event is the last one of this hand it acted in: the same record as in ``events`` while kept.
    latest_at = {actor: i for i, e in enumerate(state.events) for actor in text.actors(e)}
    latest = []
    for p, event in enumerate(state.latest):
        if p in latest_at:
            latest.append(events[latest_at[p]])
        else:
            standing = event is not None and event["k"] == "offer" and offers[p] is not None
            latest.append(None if event is None else redact(event, standing, -1 - p))
    return events, latest


def _knowledge(state: PitState, seat: int, public: bool) -> list[list[dict[str, int]]]:
    """The sample's ``known``: the seat's own bounds; what another seat knows of the seat's hand, which follows
    from the seat's own trades; with public commodities everything (all of it public); otherwise the others'
    bounds of third hands are forgotten (they rest on trades the seat only counted), which keeps them true."""
    rows = []
    for observer, row in enumerate(state.known):
        if observer == seat or public:
            rows.append([dict(bound) for bound in row])
        else:
            rows.append([dict(bound) if holder == seat else {} for holder, bound in enumerate(row)])
    return rows
