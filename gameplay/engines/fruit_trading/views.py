"""What each seat of Fruit Trading sees: observations (text for models, data for the page), labels and secrets.

A mixin over FruitTradingState that only reads the state. A seat's basket and valuations appear only in its own
observation (as the distinctive sentences ``secrets`` names, so the leak checks can look for them) until the game is
over, when both profiles are revealed to everyone.
"""

from __future__ import annotations

from ..api import ActionLabels, Observation
from .offers import FRUITS, PLURALS, PROPOSE, parse_offer, value, words


def basket_sentence(endowment) -> str:
    return "basket: " + ", ".join(f"{fruit}×{n}" for fruit, n in zip(FRUITS, endowment, strict=True))


def values_sentence(valuations) -> str:
    return "points per fruit: " + ", ".join(f"{fruit}={v}" for fruit, v in zip(FRUITS, valuations, strict=True))


class SeatViews:
    """Observation, labels and secrets of a FruitTradingState (self is the state)."""

    def _name(self, seat: int) -> str:
        return self.game.seat_name(seat)

    def move_words(self, seat: int, move: str, viewer: int | None = None) -> str:
        """A structured move as a sentence about ``seat`` (its offers from its own side)."""
        name = "You" if viewer == seat else self._name(seat)
        if move.startswith(PROPOSE + ":"):
            give, get = parse_offer(move)
            return f"{name} propose{'' if viewer == seat else 's'}: give {words(give)}, get {words(get)}"
        if move == "accept":
            return f"{name} accept{'' if viewer == seat else 's'} the offer"
        if move == "walk_away":
            return f"{name} walk{'' if viewer == seat else 's'} away"
        return f"{name} talk{'' if viewer == seat else 's'}"

    def _offer_view(self, seat: int, viewer: int | None) -> dict | None:
        offer = self.offers[seat]
        if offer is None:
            return None
        give, get = tuple(offer["give"]), tuple(offer["get"])
        view = {"seat": seat, "name": self._name(seat), "mine": viewer == seat, "give": words(give),
                "get": words(get), "text": f"{self._name(seat)} gives {words(give)} and gets {words(get)}"}
        if viewer is not None and viewer != seat and not self.is_terminal():
            # Worth to the viewer if accepted: what the viewer receives minus what it gives, at its own values.
            worth = value(give, self.valuations[viewer]) - value(get, self.valuations[viewer])
            view["worth_to_me"] = worth
            view["can_accept"] = self.to_move == viewer and self.accept_problem(viewer) is None
        return view

    def _fruit_rows(self, seat: int) -> list[dict]:
        limit = self.game.options["max_offer_units"]
        return [{"fruit": fruit, "plural": PLURALS[fruit], "have": have, "value": points,
                 "give_max": min(have, limit), "get_max": limit}
                for fruit, have, points in zip(FRUITS, self.endowments[seat], self.valuations[seat], strict=True)]

    def observation(self, seat: int | None) -> Observation:
        limit = self.game.options["max_turns_per_seat"]
        done = self.is_terminal()
        thread = [{"seat": m["seat"], "name": self._name(m["seat"]), "mine": m["seat"] == seat, "move": m["move"],
                   "move_text": self.move_words(m["seat"], m["move"], seat), "text": m["text"]}
                  for m in self.thread]
        offers = [v for v in (self._offer_view(s, seat) for s in (0, 1)) if v]
        data: dict = {
            "seat": seat, "names": [self._name(0), self._name(1)], "fruits": list(FRUITS),
            "status": "over" if done else "playing", "outcome": self.outcome,
            "to_move": None if done else self.to_move, "my_turn": not done and seat == self.to_move,
            "turns_left": [limit - n for n in self.turns_taken], "max_turns": limit,
            "turns": [{"name": self._name(s), "left": limit - self.turns_taken[s]} for s in (0, 1)],
            "max_offer_units": self.game.options["max_offer_units"], "thread": thread, "offers": offers,
        }
        lines = []
        if seat is not None:
            data["you"] = self._name(seat)
            data["basket"] = self._fruit_rows(seat)
            data["basket_text"] = basket_sentence(self.endowments[seat])
            data["values_text"] = values_sentence(self.valuations[seat])
            data["basket_worth"] = value(self.endowments[seat], self.valuations[seat])
            lines.append(f"You are {self._name(seat)}. Your {data['basket_text']}. Your {data['values_text']}.")
        else:
            lines.append("You are watching two players bargain over a fruit swap.")
        lines.append("Messages so far:" if thread else "No messages yet.")
        for m in thread:
            lines.append(f"- {m['move_text']}: \"{m['text']}\"")
        for o in offers:
            extra = f" (worth {o['worth_to_me']:+d} points to you if you accept)" if "worth_to_me" in o else ""
            lines.append(f"Standing offer of {o['name']}: {o['name']} gives {o['give']} and gets {o['get']}{extra}.")
        if done:
            data["result"] = self.result_text()
            data["payoffs"] = self.payoffs()
            data["profiles"] = [{"name": self._name(s), "start": basket_sentence(self.start_endowments[s]),
                                 "basket": basket_sentence(self.endowments[s]),
                                 "values": values_sentence(self.valuations[s]), "payoff": self.payoffs()[s]}
                                for s in (0, 1)]
            lines.append(data["result"])
            for p in data["profiles"]:
                lines.append(f"{p['name']}: started with {p['start']}; now {p['basket']}; {p['values']}.")
        else:
            left = data["turns_left"]
            lines.append(f"Turns left: {self._name(0)} {left[0]}, {self._name(1)} {left[1]}. "
                         f"{self._name(self.to_move)} to move.")
        return Observation(seat=seat, data=data, text="\n".join(lines))

    def result_text(self) -> str | None:
        if not self.is_terminal():
            return None
        pay = self.payoffs()
        tail = f"payoffs: {self._name(0)} {pay[0]:+d}, {self._name(1)} {pay[1]:+d}"
        if self.outcome == "trade":
            t = self.trade
            p = t["proposer"]
            return (f"Trade: {self._name(p)} gave {words(tuple(t['give']))} to {self._name(1 - p)} for "
                    f"{words(tuple(t['get']))}; {tail}.")
        if self.outcome == "walk_away":
            return f"{self._name(self.thread[-1]['seat'])} walked away: no trade; {tail}."
        return f"Out of turns: no trade; {tail}."

    def end_reason(self) -> str | None:
        """Why the game ended: the accepted offer, the walk-away or the turn limit (None before the end). Baskets
        and valuations are revealed at the end, so the traded fruit is no secret."""
        if not self.is_terminal():
            return None
        if self.outcome == "trade":
            t = self.trade
            p = t["proposer"]
            return (f"{self._name(1 - p)} accepted {self._name(p)}'s offer of {words(tuple(t['give']))} for "
                    f"{words(tuple(t['get']))}.")
        if self.outcome == "walk_away":
            return f"{self._name(self.thread[-1]['seat'])} walked away without a trade."
        turns = self.game.options["max_turns_per_seat"]
        return f"The limit of {turns} turn{'' if turns == 1 else 's'} per player was reached without a trade."

    def secrets(self) -> dict[int, list[str]]:
        if self.is_terminal():
            return {}  # both profiles are revealed at the end
        return {s: [basket_sentence(self.endowments[s]), values_sentence(self.valuations[s])] for s in (0, 1)}

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        # The platform names the mover before a label ("Player 1: Propose: ..."), so labels name no subject; an
        # offer reads from the mover's side, the same for every viewer (moves are public, baskets are not in them).
        label = _move_label(action_id) + (f': "{text}"' if text else "")
        return ActionLabels(by_seat=(label, label), public=label)


def _move_label(move: str) -> str:
    if move.startswith(PROPOSE + ":"):
        give, get = parse_offer(move)
        return f"Propose: give {words(give)}, get {words(get)}"
    return {"accept": "Accept the offer", "walk_away": "Walk away"}.get(move, "Talk")
