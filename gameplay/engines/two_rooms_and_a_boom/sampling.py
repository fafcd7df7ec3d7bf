"""Sampling a seat's information set in Two Rooms and a Boom (``State.sample_information_state``), for search agents.

A sample is a clone in which everything the seat has not seen is drawn anew from the generator alone:

- the cards: the seat keeps its own (in GameBench's version only its colour is known to it, so its card is dealt
  anew within that colour), every card a card share or a public reveal showed it, the colour of every colour share,
  and the Gambler once the bet makes it act; the rest of the deck is dealt uniformly among the deals that fit;
- the other room's hostage choice while the exchange is pending: drawn uniformly among the choices its Leader had;
- the seed, so that chance to come (a Leader made at random) is unknown too.

What other seats did out of the seat's sight (talk in the other room, whispers, offers and colour of shares it did not
take part in, usurp votes in the other room, a parley it did not lead) is not drawn but taken to have changed nothing:
those events become placeholders nobody sees (their log records ``HIDDEN_ACTION``), and the offers, votes and card
knowledge they left are dropped. The sample is consistent with everything the seat has seen (budgets, rooms, Leaders
and exchanges are public), but it does not spread probability over what the others might have shared or voted
unseen: that is the one approximation (see the README). Nothing here reads a value the seat has not seen: pools are
built in a canonical order from public facts and the seat's own knowledge before the generator shuffles them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from .cards import BLUE, GAMBLER, RED, build_deck, team_of
from .knowledge import known_from

if TYPE_CHECKING:
    from .game import TwoRoomsState

HIDDEN_EVENT = "hidden"  # an event the sampled seat did not witness: seen by nobody in the sample
_NOT_ACTIONS = ("auto_leader", "exchange")  # events the engine makes itself, not from a logged action


def sample_state(state: TwoRoomsState, seat: int, rng: random.Random) -> TwoRoomsState:
    sample = state.clone()
    sample.seed = rng.getrandbits(62)
    sample.rng_draws = 0  # chance to come follows the new seed alone
    if state.phase != "over":  # the end reveals every card
        sample.cards = _deal(state, seat, rng)
    room = state.rooms[seat]
    other = 1 - room
    if state.phase in ("hostages", "parley") and state.chosen[other] is not None:
        leader = state.leaders[other]
        pool = sorted(s for s in state.members(other) if s != leader)
        sample.chosen[other] = sorted(rng.sample(pool, state.hostage_count()))
    seen = _rewrite_events(sample, seat)
    hidden = {id(record) for record, saw in zip(state.log, seen, strict=True) if not saw}
    sample.log = state.redacted_log(seat, lambda record: id(record) in hidden)
    sample.known = known_from(sample.events, state.game.num_seats)
    sample.offers = [offer for offer in sample.offers if seat in offer[:2]]  # an offer is seen by its two seats
    sample.votes = {voter: target for voter, target in sample.votes.items() if state.rooms[int(voter)] == room}
    return sample


def _deal(state: TwoRoomsState, seat: int, rng: random.Random) -> list[str]:
    """A uniform deal among those that give every seat the card (or colour) the seat knows it has."""
    n = state.game.num_seats
    exact: dict[int, str] = {}
    colour: dict[int, str] = {}
    if state.game.simplified:
        colour[seat] = team_of(state.cards[seat])
    else:
        exact[seat] = state.cards[seat]
    for key, level in state.known[seat].items():
        shown = int(key)
        if level == "card":
            exact[shown] = state.cards[shown]
        else:
            colour[shown] = team_of(state.cards[shown])
    if state.phase == "gamble":
        exact[state.current_seats()[0]] = GAMBLER  # the bet shows everybody who the Gambler is
    for shown in exact:
        colour.pop(shown, None)
    left = Counter(build_deck(n))
    left.subtract(exact.values())
    teams = (BLUE, RED, GAMBLER)
    by_team = {team: sorted(c for c in left.elements() if team_of(c) == team) for team in teams}
    seats_of: dict[str, list[int]] = {team: [] for team in teams}
    for shown, team in sorted(colour.items()):
        seats_of[team].append(shown)
    # How many cards of each team the seats the seat knows nothing of hold is fixed; which of them hold which team
    # is uniform, and within a team which card is where is uniform again.
    labels = [team for team in teams for _ in range(len(by_team[team]) - len(seats_of[team]))]
    rng.shuffle(labels)
    free = sorted(set(range(n)) - set(exact) - set(colour))
    for shown, team in zip(free, labels, strict=True):
        seats_of[team].append(shown)
    cards = [""] * n
    for shown, card in exact.items():
        cards[shown] = card
    for team in teams:
        deck = by_team[team]
        rng.shuffle(deck)
        for shown, card in zip(sorted(seats_of[team]), deck, strict=True):
            cards[shown] = card
    return cards


def _rewrite_events(sample: TwoRoomsState, seat: int) -> list[bool]:
    """In the sample's own copy of the events, replace those the seat did not witness and show the sampled cards in
    those it did; whether it witnessed each logged action, in log order."""
    events = sample.events
    exchanges = {e["r"]: e["moves"] for e in events if e["k"] == "exchange"}  # public
    cards = sample.cards
    seen: list[bool] = []
    for i, event in enumerate(events):
        kind = event["k"]
        saw = event["see"] is None or seat in event["see"]
        if kind not in _NOT_ACTIONS:
            seen.append(saw)
        if saw:
            if kind == "share":
                event.update(ca=cards[event["a"]], cb=cards[event["b"]])
            elif kind == "reveal":
                event["c"] = cards[event["s"]]
        elif kind == "hostages":  # a Leader's choice (the only action of its phase), announced in its room
            moves = exchanges.get(event["r"])
            event["seats"] = list(moves[event["room"]] if moves is not None else sample.chosen[event["room"]])
        else:
            events[i] = {"k": HIDDEN_EVENT, "r": event["r"], "s": event["s"], "room": event["room"], "see": []}
    return seen
