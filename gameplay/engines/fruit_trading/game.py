"""Fruit Trading as a pure engine: a two-seat dialogue game of one fruit swap (the fact sheet's §5 rules).

Each turn the seat to move takes one text action: the id is the structured move (an offer ``propose:<give>:<get>``,
``accept``, ``walk_away`` or ``talk``) and the text is its message. Baskets and valuations are private; messages and
moves are public. Payoffs are computed from the structured trade, never from the words (the seed's judge could
hallucinate trades). Observations and labels are in views.py.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..api import Game, GameSpec, IllegalActionError, MeasureSpec, OptionSpec, State, TextAction
from ..dialogue import ANY, DialogueSpec, InstructionSet, clean_message, scores_from_payoffs
from .offers import FRUITS, PROPOSE, legal_offers, offer_id, offer_problem, parse_offer, value, words
from .rules import BASKET, ENDING, OFFERS, PAYOFF, RULES
from .views import SeatViews

ACCEPT, WALK_AWAY, TALK = "accept", "walk_away", "talk"
PAYOFF_BOUNDS = (-20.0, 20.0)  # OpenSpiel's range for this domain (the fact sheet §2)

# OpenSpiel's fixed scenarios A (Bob, seat 0) and B (Suzy, seat 1): counts and points per fruit, in FRUITS order.
SCENARIO_ENDOWMENTS = ((1, 2, 0, 0), (0, 0, 5, 3))
SCENARIO_VALUATIONS = ((10, 5, 1, 3), (8, 7, 2, 2))
# The opener of the OpenSpiel game, sent by seat 0 before seat 1's first move (worded here in our own words).
OPENING_OFFER = ((0, 1, 0, 0), (1, 0, 0, 0))
OPENING_TEXT = "Hi! Shall we trade? I give you 1 banana and you give me 1 apple. Does that work for you?"

TONES = InstructionSet(
    name="tone",
    instructions=("calm", "assertive", "submissive", ANY),
    template="Write your message in a {} tone.",
)

SPEC = GameSpec(
    id="fruit_trading",
    name="Fruit Trading",
    description="Two players bargain over a fruit swap by message: each knows only their own basket and what "
                "each fruit is worth to them.",
    min_seats=2,
    max_seats=2,
    reasoning_categories=("hidden_information", "language_communication"),
    perfect_information=False,
    has_chance=True,
    # An offer is chosen as (propose, what you give, what you get): a basket allows a hundred offers and more.
    composed_actions=True,
    seat_names=("Player 1", "Player 2"),
    options=(
        OptionSpec("scenario", "fixed", "fixed: OpenSpiel's scenario (Player 1 holds apples and bananas, Player 2 "
                   "blueberries and kiwis); random: baskets and valuations drawn from the match seed",
                   type=str, choices=("fixed", "random"), label="Scenario"),
        OptionSpec("max_turns_per_seat", 3, "Turns each player has before the game ends without a trade",
                   type=int, bounds=(1, 10), short_value=2, label="Turns per player"),
        OptionSpec("openspiel_opening", False, "Start as in OpenSpiel: Player 1's opening offer (1 banana for 1 "
                   "apple) is already sent and Player 2 moves first", label="Start with OpenSpiel's opening offer"),
        OptionSpec("max_offer_units", 3, "The most fruits on one side of an offer", type=int, bounds=(1, 5),
                   label="Most fruits on one side of an offer"),
    ),
    measures=(
        MeasureSpec("payoff", "Points received minus points given, at the seat's own valuations (0 without a trade)"),
        MeasureSpec("agreement", "The game ended with a trade", kind="bool"),
        MeasureSpec("messages", "Messages the seat wrote"),
    ),
    dialogue=DialogueSpec(instruction_sets=(TONES,), payoff_bounds=PAYOFF_BOUNDS),
)


class FruitTradingState(SeatViews, State):
    game: FruitTradingGame

    def __init__(self, game: FruitTradingGame, seed: int):
        super().__init__(game, seed)
        if game.options["scenario"] == "fixed":
            self.endowments = [list(e) for e in SCENARIO_ENDOWMENTS]
            self.valuations = [list(v) for v in SCENARIO_VALUATIONS]
        else:
            rng = self.rng()
            self.endowments, self.valuations = [], []
            for _ in range(2):
                basket = [0] * len(FRUITS)
                while not any(basket):  # every seat holds at least one fruit
                    basket = [rng.randint(0, 5) for _ in FRUITS]
                self.endowments.append(basket)
                self.valuations.append([rng.randint(1, 10) for _ in FRUITS])
        self.start_endowments = [list(e) for e in self.endowments]  # revealed at the end next to the final baskets
        self.offers: list[dict | None] = [None, None]  # each seat's standing offer: {"give": [...], "get": [...]}
        self.thread: list[dict] = []  # {"seat", "move", "text"}: every message, in order
        self.turns_taken = [0, 0]
        self.to_move = 0
        self.outcome: str | None = None  # "trade", "walk_away" or "limit" once over
        self.trade: dict | None = None  # {"proposer", "give", "get"} of the executed trade
        if game.options["openspiel_opening"]:
            give, get = OPENING_OFFER
            move = TALK
            if not offer_problem(give, get, self.endowments[0], game.options["max_offer_units"]):
                move = offer_id(give, get)
                self.offers[0] = {"give": list(give), "get": list(get)}
            self.thread.append({"seat": 0, "move": move, "text": OPENING_TEXT})
            self.to_move = 1

    # --- turns and actions ------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        return [] if self.outcome else [self.to_move]

    def legal_actions(self, seat: int) -> list:
        return []  # every move carries a message: they are all text actions

    def _max_units(self) -> int:
        return self.game.options["max_offer_units"]

    def accept_problem(self, seat: int) -> str | None:
        """Why ``seat`` cannot accept now (None: it can)."""
        offer = self.offers[1 - seat]
        if offer is None:
            return f"{self.game.seat_name(1 - seat)} has no standing offer to accept"
        for fruit, asked, have in zip(FRUITS, offer["get"], self.endowments[seat], strict=True):
            if asked > have:
                return (f"the offer asks you for {words(tuple(offer['get']))}, and you have {have} {fruit}"
                        f"{'' if have == 1 else 's'}")
        return None

    def text_actions(self, seat: int) -> list[TextAction]:
        if seat not in self.current_seats():
            return []
        return list(_moves(tuple(self.endowments[seat]), self._max_units(), self.accept_problem(seat) is None,
                           self.game.spec.dialogue.max_message_length))

    def apply_action(self, seat: int, action_id: str, text: str | None = None) -> None:
        # Say why an offer or an acceptance is refused (the shared check only says "not legal now").
        if not self.is_terminal() and seat in self.current_seats():
            if action_id.startswith(PROPOSE + ":"):
                give, get = parse_offer(action_id)
                problem = offer_problem(give, get, self.endowments[seat], self._max_units())
                if problem:
                    raise IllegalActionError(f"{action_id} is not a legal offer: {problem}")
                if offer_id(give, get) != action_id:
                    raise IllegalActionError(f"write the offer as {offer_id(give, get)}")
            elif action_id == ACCEPT:
                problem = self.accept_problem(seat)
                if problem:
                    raise IllegalActionError(f"you cannot accept: {problem}")
        super().apply_action(seat, action_id, text)

    def validate_text(self, seat: int, action_id: str, text: str) -> str:
        return clean_message(text, self.game.spec.dialogue.max_message_length)

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        self.thread.append({"seat": seat, "move": action_id, "text": text})
        self.turns_taken[seat] += 1
        if action_id.startswith(PROPOSE + ":"):
            give, get = parse_offer(action_id)
            self.offers[seat] = {"give": list(give), "get": list(get)}
        elif action_id == ACCEPT:
            offer = self.offers[1 - seat]
            self.trade = {"proposer": 1 - seat, "give": list(offer["give"]), "get": list(offer["get"])}
            proposer = 1 - seat
            for i in range(len(FRUITS)):
                moved_out, moved_in = offer["give"][i], offer["get"][i]
                self.endowments[proposer][i] += moved_in - moved_out
                self.endowments[seat][i] += moved_out - moved_in
            self.outcome = "trade"
        elif action_id == WALK_AWAY:
            self.outcome = "walk_away"
        if self.outcome is not None:
            self.offers = [None, None]  # nothing stands once the game is over (the trade is in self.trade)
        else:
            limit = self.game.options["max_turns_per_seat"]
            if all(n >= limit for n in self.turns_taken):
                self.outcome = "limit"
            else:
                self.to_move = 1 - seat

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        if action_id.startswith(PROPOSE + ":"):
            return (OFFERS, BASKET, PAYOFF)
        if action_id == ACCEPT:
            return (ENDING, PAYOFF)
        if action_id == WALK_AWAY:
            return (ENDING, PAYOFF)
        return (OFFERS,)

    # --- outcome -----------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def payoffs(self) -> list[int]:
        """Each seat's raw payoff: value received minus value given at its own valuations (0 without a trade)."""
        if self.trade is None:
            return [0, 0]
        proposer = self.trade["proposer"]
        give, get = self.trade["give"], self.trade["get"]
        result = [0, 0]
        result[proposer] = value(get, self.valuations[proposer]) - value(give, self.valuations[proposer])
        result[1 - proposer] = value(give, self.valuations[1 - proposer]) - value(get, self.valuations[1 - proposer])
        return result

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        return scores_from_payoffs(self.payoffs(), self.game.spec.dialogue.payoff_bounds)

    def measures(self, seat: int) -> dict[str, Any]:
        done = self.is_terminal()
        return {
            "payoff": self.payoffs()[seat] if done else None,
            "agreement": self.trade is not None if done else None,
            "messages": sum(1 for m in self.thread if m["seat"] == seat),
        }

    # --- persistence ---------------------------------------------------------------------------------
    PAYLOAD_FIELDS = (
        "endowments", "start_endowments", "valuations", "offers", "thread", "turns_taken", "to_move",
        "outcome", "trade"
    )


@lru_cache(maxsize=64)
def _moves(endowment: tuple[int, ...], max_units: int, can_accept: bool, max_length: int) -> tuple[TextAction, ...]:
    """The text actions of a seat holding ``endowment``: talk, accept (when it may), walk away, then every legal
    offer. They depend only on these arguments, so each list is built once and reused (hundreds of offers)."""
    hint = "your message"
    talk, accept, walk = "Talk (a message, no move)", "Accept the other player's offer", "Walk away (end with no trade)"
    moves = [TextAction(TALK, talk, hint, max_length, example="Which fruits would you like the most?", parts=(talk,))]
    if can_accept:
        moves.append(TextAction(ACCEPT, accept, hint, max_length, example="Deal: I accept your offer.",
                                parts=(accept,)))
    moves.append(TextAction(WALK_AWAY, walk, hint, max_length, example="No trade this time, thank you.",
                            parts=(walk,)))
    for give, get in legal_offers(endowment, max_units):
        moves.append(TextAction(offer_id(give, get), f"Propose: you give {words(give)}, you get {words(get)}",
                                hint, max_length, example=f"I can give you {words(give)} for {words(get)}.",
                                parts=(OFFER_PART, f"you give {words(give)}", f"you get {words(get)}")))
    return tuple(moves)


# The first part of every offer (composed_actions): the agent chooses to propose, then what to give, then what to get.
OFFER_PART = "Propose an offer (then choose what you give and what you get)"


class FruitTradingGame(Game):
    spec = SPEC
    state_class = FruitTradingState
    rules = RULES

    def max_actions(self) -> int:
        return 2 * self.options["max_turns_per_seat"]
