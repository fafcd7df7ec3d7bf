"""Pit as a pure engine: hands of a commodity-trading race played in simultaneous market ticks.

The published game has no turns: everybody shouts offers at once. Here the market runs in ticks (the fact
sheet's adaptation): in each tick every seat that has not acted yet is current, each action takes effect the
moment it arrives (an accepted offer swaps the cards at once), and when every seat has acted the next tick starts
with all seats current again. So an agent loop that plays every current agent seat stops after one action each,
while people act whenever they like within the tick. Standing offers persist across ticks. A corner ends the hand
at once; a hand without a corner after ``tick_cap`` ticks is re-dealt without score (a platform rule), and the
game ends at the target score or after ``max_hands`` hands (a platform rule too, so that random play finishes).

Hidden information: each hand, each standing offer's cards and each trade's cards are private. Action ids name
cards, so they are never shown to other seats by the engine: labels and observations (views.py) word everything
per viewer (text.py) and only counts reach a third seat. How the game ended is worded by ending.py.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..api import (
    Action,
    Game,
    GameSpec,
    MeasureSpec,
    OptionSpec,
    State,
)
from . import knowledge, sampling, text
from .cards import (
    CARDS_PER_COMMODITY,
    NAMES,
    VALUES,
    add,
    build_deck,
    commodities_for,
    counter,
    parse_bundle,
    remove,
    size,
    words,
)
from .ending import EndWords
from .evaluation import evaluate
from .market import CANCEL, MarketRules, corner_value, legal_ids, penalties
from .rules import BULL_BEAR, CORNERING, MARKET, OFFERS, RULES, SCORING, VISIBILITY
from .views import SeatViews

# Events of the current hand kept and worded in observations; older ones are dropped (the state stays small: the
# platform copies it at every action), except each seat's latest, kept apart for "last action" displays.
LOG_SHOWN = 12


class PitState(SeatViews, EndWords, State):
    game: PitGame

    def __init__(self, game: PitGame, seed: int):
        super().__init__(game, seed)
        n = game.num_seats
        self.totals = [0] * n
        self.corners_made = [0] * n
        self.trades = 0  # trades made in the whole game (numbers them)
        self.hands_played = 0  # hands finished, by a corner or by the tick cap
        self.finished = False
        self.last_result = ""  # the public wording of how the previous hand ended
        self.events: list[dict[str, Any]] = []  # this hand's latest events (full detail; worded per viewer)
        self.latest: list[dict[str, Any] | None] = [None] * n  # each seat's latest event this hand
        self.hands: list[dict[str, int]] = []
        self.offers: list[dict[str, int] | None] = []
        self.tick = 1
        self.acted = [False] * n
        self._forget_legal_actions()
        self._deal()

    # --- hands ---------------------------------------------------------------------------------
    def _deal(self) -> None:
        """Shuffle and deal the whole deck round the table, starting one seat further on every hand."""
        n = self.game.num_seats
        deck = build_deck(self.game.market.commodities, self.game.options["bull_and_bear"])
        self.rng().shuffle(deck)
        first = self.hands_played % n
        dealt: list[list[str]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            dealt[(first + i) % n].append(card)
        self.hands = [counter(cards) for cards in dealt]
        # Actions logged before this deal: a re-deal happens inside the _apply of the corner (or last tick's action),
        # which the log records once _apply returns. A page drawn before them showed the previous hand.
        self.hand_started = len(self.log) + 1 if self.hands_played else 0
        self.offer_started = [0] * n  # per seat: actions logged before its standing offer was made
        self.offers = [None] * n
        self.known = knowledge.fresh(n)  # what each seat knows of the others' new hands: nothing yet
        self.events = []
        self.latest = [None] * n
        self.tick = 1
        self.acted = [False] * n

    def _end_hand(self, cornered: bool) -> None:
        """After a corner or the tick cap: the game ends at the target (only a corner can reach it) or after
        max_hands hands; otherwise the next hand is dealt."""
        self.hands_played += 1
        reached = cornered and max(self.totals) >= self.game.options["target"]
        if reached or self.hands_played >= self.game.options["max_hands"]:
            self.finished = True
        else:
            self._deal()

    # --- the contract --------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        if self.finished:
            return []
        return [s for s in range(self.game.num_seats) if not self.acted[s]]

    def legal_actions(self, seat: int) -> list[Action]:
        # Asked for many times per action (labels, every seat's board); cleared by every action.
        cached = self._legal_cache.get(seat)
        if cached is None:
            ids = self.legal_action_ids(seat)
            cached = self._legal_cache[seat] = [Action(i, self._own_label(seat, i)) for i in ids]
        return list(cached)

    def legal_action_ids(self, seat: int) -> list[str]:
        # Checking a move and searching need the ids only: wording each bundle of cards is most of the cost.
        if seat not in self.current_seats():
            return []
        cached = self._id_cache.get(seat)
        if cached is None:
            cached = self._id_cache[seat] = legal_ids(self.game.market, seat, self.hands, self.offers)
        return list(cached)

    def _forget_legal_actions(self) -> None:
        """Called whenever hands, offers or who is to act change."""
        self._legal_cache: dict[int, list[Action]] = {}
        self._id_cache: dict[int, list[str]] = {}

    def _own_label(self, seat: int, action_id: str) -> str:
        kind, *rest = action_id.split(":")
        if kind == "corner":
            value = corner_value(self.game.market, self.hands[seat], rest[0])
            return f"Corner {NAMES[rest[0]]} (+{value})"
        if kind == "offer":
            return f"Offer {words(self._bundle(rest[0], rest[1]))}"
        if kind == "accept":
            other, count, bundle = int(rest[0]), rest[1], rest[2]
            offered = text.cards_word(size(self.offers[other] or {}))
            giving = words(self._bundle(count, bundle))
            return f"Take {self.game.seat_name(other)}'s offer of {offered}: give {giving}"
        return "Withdraw your offer" if kind == CANCEL else "Pass"

    def _bundle(self, count: str, bundle_text: str) -> dict[str, int]:
        return parse_bundle(int(count), bundle_text, self.game.market.commodities)

    def _event_for(self, seat: int, action_id: str) -> dict[str, Any]:
        """The structured event an action makes (before it is applied)."""
        kind, *rest = action_id.split(":")
        if kind == "offer":
            return {"k": "offer", "s": seat, "b": self._bundle(rest[0], rest[1])}
        if kind == "accept":
            other = int(rest[0])
            return {"k": "trade", "a": other, "b": seat, "ga": dict(self.offers[other] or {}),
                    "gb": self._bundle(rest[1], rest[2]), "n": self.trades + 1}
        if kind == "corner":
            return self._corner_event(seat, rest[0])
        if kind == CANCEL:
            return {"k": "cancel", "s": seat}
        return {"k": "pass", "s": seat}

    def _corner_event(self, seat: int, commodity: str) -> dict[str, Any]:
        hand = self.hands[seat]
        market = self.game.market
        lost = penalties(market, self.hands, seat)
        # The cards each penalty is for: GameBench's rule charges the cornerer's Bear only, not a Bull it also holds.
        charged = ("bear",) if market.bear_penalises_corner else ("bull", "bear")
        held = {str(s): [c for c in charged if self.hands[s].get(c)] for s in lost}
        shown = {commodity: hand[commodity], **{c: 1 for c in ("bull",) if hand.get(c)}}
        if hand.get("bear"):  # GameBench's rule: the cornering hand shows the Bear it pays for
            shown["bear"] = 1
        value = corner_value(market, hand, commodity)
        return {"k": "corner", "s": seat, "c": commodity, "cards": shown, "value": value,
                "double": value > VALUES[commodity], "penalties": {str(s): p for s, p in lost.items()},
                "held": held}

    def _apply(self, seat: int, action_id: str, text_in: str | None) -> None:
        self._forget_legal_actions()
        event = self._event_for(seat, action_id)
        kind = event["k"]
        self._record(event)
        if kind == "offer":
            self.offers[seat] = event["b"]
            self.offer_started[seat] = len(self.log) + 1  # this offer is logged once _apply returns
            if self._public_cards():
                knowledge.note_public_offer(self.known, seat, event["b"])
        elif kind == "cancel":
            self.offers[seat] = None
        elif kind == "trade":
            self.trades += 1
            offerer = event["a"]
            remove(self.hands[offerer], event["ga"])
            remove(self.hands[seat], event["gb"])
            add(self.hands[offerer], event["gb"])
            add(self.hands[seat], event["ga"])
            self.offers[offerer] = None
            self.offers[seat] = None
            knowledge.note_trade(self.known, offerer, seat, event["ga"], event["gb"], self._public_cards())
        elif kind == "corner":
            self.totals[seat] += event["value"]
            self.corners_made[seat] += 1
            for penalised, points in event["penalties"].items():
                self.totals[int(penalised)] += points
            self.last_result = text.describe(event, None, self.game.seat_name, True)
            self._end_hand(cornered=True)
            return
        self.acted[seat] = True
        if all(self.acted):
            self._next_tick()

    def _record(self, event: dict[str, Any]) -> None:
        self.events = [*self.events[-(LOG_SHOWN - 1):], event]
        for seat in text.actors(event):
            self.latest[seat] = event

    def _next_tick(self) -> None:
        if self.tick >= self.game.options["tick_cap"]:
            void = {"k": "void", "ticks": self.tick}
            self._record(void)
            self.last_result = text.describe(void, None, self.game.seat_name, True)
            self._end_hand(cornered=False)
            return
        self.tick += 1
        self.acted = [False] * self.game.num_seats

    def is_terminal(self) -> bool:
        return self.finished

    def concurrent_view_start(self, seat: int, action_id: str) -> int:
        # A click chosen on the previous hand's cards must not land on this one, nor a click taking an offer on a
        # later offer of the same seat (GameSpec.concurrent_actions).
        kind, _, rest = action_id.partition(":")
        other = rest.partition(":")[0]
        if kind == "accept" and other.isdigit() and int(other) < self.game.num_seats:
            return max(self.hand_started, self.offer_started[int(other)])
        return self.hand_started

    def _draw_information_state(self, seat: int, rng: random.Random) -> PitState:
        # The other hands, their offers and the cards of trades the seat only counted, drawn anew (sampling.py).
        return sampling.sample_state(self, seat, rng)

    def scores(self) -> list[float]:
        n = self.game.num_seats
        if not self.finished:
            return [1.0 / n] * n
        if self.game.options["gamebench_share_scores"]:
            positive = [max(t, 0) for t in self.totals]
            if sum(positive) > 0:
                return [p / sum(positive) for p in positive]
            return [1.0 / n] * n
        best = max(self.totals)
        winners = [i for i, t in enumerate(self.totals) if t == best]
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(n)]

    def evaluation(self) -> list[float]:
        """Estimated scores of an unfinished game from totals and each hand's way to a corner (``evaluation.py``);
        the scores themselves once it is over."""
        return evaluate(self)

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        kind = action_id.split(":")[0]
        if kind == "corner":
            return (CORNERING, BULL_BEAR, SCORING) if self.game.options["bull_and_bear"] else (CORNERING, SCORING)
        if kind in ("offer", "accept"):
            return (OFFERS, VISIBILITY, MARKET)
        return (MARKET, OFFERS)

    def measures(self, seat: int) -> dict[str, Any]:
        return {"points": self.totals[seat], "corners": self.corners_made[seat], "hands": self.hands_played}

    # --- JSON ----------------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "totals", "hands_played", "trades", "finished", "last_result", "events", "latest", "hands",
        "offers", "tick", "acted"
    )

    def _payload(self) -> dict:
        return {**super()._payload(), "corners": self.corners_made, "hand_started": self.hand_started,
                "offer_started": self.offer_started, "known": self.known}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self._forget_legal_actions()
        self.corners_made = list(payload["corners"])
        self.hand_started = payload.get("hand_started", 0)  # states stored before it was kept: 0 (no check)
        self.offer_started = list(payload.get("offer_started", [0] * self.game.num_seats))
        # States stored before it was kept: nobody knows anything of the others' hands (a weaker, still true bound).
        self.known = payload.get("known") or knowledge.fresh(self.game.num_seats)


class PitGame(Game):
    spec = GameSpec(
        id="pit",
        name="Pit",
        description="Commodity-trading race: swap cards blind, announcing only how many, to corner a market.",
        min_seats=3,
        max_seats=7,
        reasoning_categories=("language_communication",),
        perfect_information=False,
        simultaneous=True,
        # Everyone trades at once on their own hand: another seat's trade landing first must not void a click.
        concurrent_actions=True,
        has_chance=True,
        information_sampling=True,
        has_evaluation=True,
        options=(
            OptionSpec("bull_and_bear", False, "Advanced game: add the Bull (wild, doubles a full corner) and the "
                       "Bear (blocks a corner); their holders lose 20 when someone corners.", label="Bull and Bear"),
            OptionSpec("gamebench_deck", False, "GameBench's deck: Wheat 100, Barley 85, Corn 75, Soyabeans 55 "
                       "(9 each) for any number of players, dealt round the table.", label="GameBench: deck"),
            OptionSpec("gamebench_corner_at_6", False, "GameBench's corner: 6 cards of a commodity (5 + Bull; "
                       "6 + Bull doubles) instead of all 9.", label="GameBench: corner at 6 cards"),
            OptionSpec("gamebench_public_commodities", False, "GameBench's open offers: every offer and trade names "
                       "its commodity publicly.", label="GameBench: open offers"),
            OptionSpec("gamebench_unequal_trades", False, "GameBench's answers: take an offer with any number of "
                       "cards of one commodity (hand sizes change).", label="GameBench: unequal trades"),
            OptionSpec("gamebench_bear_penalty", False, "GameBench's Bear: it does not block a corner; the "
                       "cornering hand loses 20 if it holds it; no other penalty.", label="GameBench: Bear penalty"),
            OptionSpec("gamebench_share_scores", False, "GameBench's result: each player's share of all positive "
                       "points, instead of the highest total winning.", label="GameBench: scores as shares"),
            OptionSpec("tick_cap", 60, "Platform rule: ticks a hand may last before it is re-dealt without score.",
                       int, bounds=(1, 100_000), short_value=4, label="Ticks per hand"),
            OptionSpec("max_hands", 10, "Platform rule: the game ends after this many hands (re-deals included); "
                       "the highest total then wins.", int, bounds=(1, 100_000), short_value=1, label="Hand cap"),
            OptionSpec("target", 500, "Points that win the game.", int, bounds=(1, 100_000), label="Points to win"),
        ),
        measures=(
            MeasureSpec("points", "The seat's total points at the end (corners minus Bull/Bear penalties)."),
            MeasureSpec("corners", "How many corners the seat called."),
            MeasureSpec("hands", "Hands played in the game, re-deals after the tick cap included."),
        ),
    )
    state_class = PitState
    rules = RULES

    def __init__(self, options: Mapping[str, Any] | None = None, num_seats: int | None = None):
        super().__init__(options, num_seats)
        self.market = MarketRules(
            commodities=commodities_for(self.num_seats, self.options["gamebench_deck"]),
            corner_size=6 if self.options["gamebench_corner_at_6"] else CARDS_PER_COMMODITY,
            unequal_trades=self.options["gamebench_unequal_trades"],
            bear_penalises_corner=self.options["gamebench_bear_penalty"],
        )

    def max_actions(self) -> int:
        # Every tick is one action per seat, and a hand lasts at most tick_cap ticks.
        return self.options["max_hands"] * self.options["tick_cap"] * self.num_seats


