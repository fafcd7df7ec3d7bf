"""What each seat of Pit sees: its observation (data and text), its board's buttons, per-viewer action labels and
the secrets the leak checks look for. A mixin over PitState: everything here only reads the state, and every card
another seat must not learn is worded per viewer by text.py before it leaves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api import ActionLabels, Observation
from . import text
from .cards import NAMES, VALUES, ordered, size, words


class SeatViews:
    def _public_cards(self) -> bool:
        return self.game.options["gamebench_public_commodities"]

    def _word(self, event: Mapping[str, Any], viewer: int | None) -> str:
        return text.describe(event, viewer, self.game.seat_name, self._public_cards())

    def observation(self, seat: int | None) -> Observation:
        name = self.game.seat_name
        market = self.game.market
        offers = []
        for other, offer in enumerate(self.offers):
            if offer is None:
                continue
            shown = words(offer) if other == seat or self._public_cards() else text.cards_word(size(offer))
            who = "You offer" if other == seat else f"{name(other)} offers"
            offers.append({"seat": other, "name": name(other), "count": size(offer), "text": f"{who} {shown}",
                           "shown": shown, "mine": other == seat})
        latest = self.latest
        data: dict[str, Any] = {
            "seat": seat,
            "status": "over" if self.finished else "playing",
            "my_turn": seat is not None and seat in self.current_seats(),
            "hand_number": self.hands_played + (0 if self.finished else 1),
            "max_hands": self.game.options["max_hands"],
            "tick": self.tick,
            "tick_cap": self.game.options["tick_cap"],
            "target": self.game.options["target"],
            "corner_size": market.corner_size,
            "commodities": [{"name": NAMES[c], "value": VALUES[c]} for c in market.commodities],
            "totals": list(self.totals),
            "players": [{"seat": s, "name": name(s), "total": self.totals[s], "hand_size": size(self.hands[s]),
                         "acted": self.acted[s], "you": s == seat,
                         "last": self._word(latest[s], seat) if latest[s] else ""}
                        for s in range(self.game.num_seats)],
            "hand_sizes": [size(h) for h in self.hands],
            "acted": list(self.acted),
            "waiting": ", ".join(name(s) for s in self.current_seats()),
            "offers": offers,
            "log": [self._word(e, seat) for e in self.events],
            "last_result": self.last_result,
        }
        if seat is not None:
            hand, mine = self.hands[seat], self.offers[seat]
            data["hand"] = [{"card": c, "name": NAMES[c], "count": n, "offered": (mine or {}).get(c, 0)}
                            for c, n in text._in_order(hand)]
            data["hand_text"] = text.hand_sentence(hand)
            data["hand_size"] = size(hand)
            data["my_offer_text"] = text.offer_sentence(mine) if mine else ""
            data["market"] = self._market_buttons(seat)
        return Observation(seat, data, text.observation_text(data, name, seat))

    def _market_buttons(self, seat: int) -> dict[str, Any]:
        """The seat's own legal actions grouped for the board: offers per commodity, answers per standing offer."""
        groups: dict[str, Any] = {"corner": [], "offer_rows": {}, "accept_rows": {}, "cancel": None, "pass": None}
        for action in self.legal_actions(seat):
            kind, *rest = action.id.split(":")
            if kind == "corner":
                groups["corner"].append({"id": action.id, "text": action.label})
            elif kind == "offer":
                bundle = self._bundle(rest[0], rest[1])
                row = groups["offer_rows"].setdefault(rest[1], {"what": _row_name(bundle), "buttons": []})
                row["buttons"].append({"id": action.id, "text": rest[0], "label": action.label})
            elif kind == "accept":
                other = int(rest[0])
                row = groups["accept_rows"].setdefault(rest[0], {"seat": other, "name": self.game.seat_name(other),
                                                                "count": size(self.offers[other] or {}),
                                                                "buttons": []})
                row["buttons"].append({"id": action.id, "text": f"Give {words(self._bundle(rest[1], rest[2]))}",
                                       "label": action.label})
            else:
                groups[kind] = {"id": action.id, "text": action.label}
        groups["offer_rows"] = list(groups["offer_rows"].values())
        groups["accept_rows"] = list(groups["accept_rows"].values())
        return groups

    def secrets(self) -> dict[int, list[str]]:
        result: dict[int, list[str]] = {}
        for seat, hand in enumerate(self.hands):
            values = [text.hand_sentence(hand)]
            if not self._public_cards():
                if self.offers[seat]:
                    values.append(text.offer_sentence(self.offers[seat]))
                for event in [*self.events, *(e for e in self.latest if e)]:
                    if event["k"] == "trade" and seat in (event["a"], event["b"]):
                        got = event["gb"] if seat == event["a"] else event["ga"]
                        values.append(text.got_sentence(got, event["n"]))
            result[seat] = values
        return result

    def action_labels(self, seat: int, action_id: str, text_in: str | None = None) -> ActionLabels:
        if action_id not in {a.id for a in self.legal_actions(seat)}:
            return super().action_labels(seat, action_id, text_in)
        event = self._event_for(seat, action_id)
        by_seat = tuple(self._word(event, viewer) for viewer in range(self.game.num_seats))
        return ActionLabels(by_seat=by_seat, public=self._word(event, None))



def _row_name(bundle: Mapping[str, int]) -> str:
    """An offer row's heading: the commodity, with any special cards added ('Wheat + Bull')."""
    return " + ".join(NAMES[c] for c in ordered(bundle))
