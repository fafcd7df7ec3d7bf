"""What each seat of Two Rooms and a Boom sees: its observation (data and text), its own action labels, the labels
of an action for every viewer, and the secrets the leak checks look for. A mixin over TwoRoomsState that only reads
the state; every event is worded per viewer by text.py, and an event a seat did not witness never reaches it. The
observation's data are facts a page reads by key (the viewer's own card as fields, each log entry's kind and seats
beside its line); its text, what language models read, is written from them."""

from __future__ import annotations

from typing import Any

from ..api import ActionLabels, Observation
from . import text
from .cards import BLUE, CARD_NAMES, RED, ROOM_NAMES, ROUNDS, TEAM_COLOURS, TEAM_NAMES, TEAM_NUMBER, team_of

LOG_SHOWN = 40  # latest witnessed events in an observation (the state keeps them all)
# How a log entry is styled by kind: the messages, everything about showing cards (offers, shares, reveals), the
# hostage exchange; every other event (Leaders, votes, hostage choices, Done, the bet) is "event".
LOG_KINDS = {"say": "say", "whisper": "whisper", "parley": "parley", "offer": "share", "share": "share",
             "reveal": "share", "exchange": "exchange"}
# The event's own fields a log entry carries as (event key, entry key), each told by the entry's line as well.
ENTRY_FIELDS = {"say": (("text", "words"),), "whisper": (("text", "words"),), "parley": (("text", "words"),),
                "offer": (("how", "share"),), "share": (("how", "share"),), "vote": (("won", "won"),),
                "hostages": (("seats", "seats"),), "exchange": (("moves", "moves"),), "gamble": (("guess", "guess"),)}


class SeatViews:
    def team_number(self, seat: int) -> int:
        return TEAM_NUMBER[team_of(self.cards[seat])]

    def _sees(self, event: dict[str, Any], viewer: int | None) -> bool:
        return event["see"] is None or (viewer is not None and viewer in event["see"])

    def _facts(self, viewer: int) -> list[str]:
        """Everything ``viewer`` knows about cards, itself first, each as the exact sentence its view shows."""
        name, cards = self.game.seat_name, self.cards
        if self.game.simplified:
            return [text.colour_fact(viewer, cards[viewer], name)]
        lines = [text.card_fact(viewer, cards[viewer], name)]
        for seat_key, level in sorted(self.known[viewer].items(), key=lambda kv: int(kv[0])):
            seat = int(seat_key)
            if level == "card":
                lines.append(text.card_fact(seat, cards[seat], name))
            lines.append(text.colour_fact(seat, cards[seat], name))
        return lines

    def secrets(self) -> dict[int, list[str]]:
        if self.is_terminal():
            return {}  # every card is revealed at the end
        simplified = self.game.simplified
        return {seat: [text.own_card_line(self.cards[seat], simplified), *self._facts(seat)]
                for seat in range(self.game.num_seats)}

    def _own_card(self, seat: int) -> dict[str, Any]:
        """The viewer's own card as fields: its name (None in the GameBench variant, which tells the colour only)
        and its team colour ("blue", "red", or "grey" for the Gambler, who is on neither team)."""
        card = self.cards[seat]
        return {"name": None if self.game.simplified else CARD_NAMES[card], "team": TEAM_COLOURS[team_of(card)]}

    def _entry(self, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """One witnessed event as ``viewer`` may know it: its kind, round, the seat whose action it was and the seat
        it was aimed at, and its line as worded for this viewer (text.describe). The extra fields repeat only what
        that line tells this viewer; a card stays in the line, which only its witnesses read."""
        kind = event["k"]
        target = event["a"] if kind == "share" else event.get("t")  # a share is accepted from its offerer
        entry: dict[str, Any] = {"kind": LOG_KINDS.get(kind, "event"), "event": kind, "round": event["r"],
                                 "seat": event.get("s"), "target": target,
                                 "text": text.describe(event, viewer, self.game.seat_name)}
        for key, field in ENTRY_FIELDS.get(kind, ()):
            entry[field] = event[key]
        return entry

    def observation(self, seat: int | None) -> Observation:
        name = self.game.seat_name
        over = self.is_terminal()
        data: dict[str, Any] = {
            "seat": seat,
            "round": self.round,
            "rounds": ROUNDS,
            "phase": self.phase,
            "status": "over" if over else "playing",
            "my_turn": seat is not None and seat in self.current_seats(),
            "to_act": [name(s) for s in self.current_seats()],
            "hostages_per_round": list(self.game.hostages),
            "rooms": [{"name": ROOM_NAMES[r], "leader": self.leaders[r],
                       "leader_name": name(self.leaders[r]) if self.leaders[r] is not None else "",
                       "members": [{"seat": s, "name": name(s), "talk_left": self.budgets[s]}
                                   for s in self.members(r)]} for r in (0, 1)],
            "players": [{"seat": s, "name": name(s)} for s in range(self.game.num_seats)],
            "log": [self._entry(e, seat) for e in self.events if self._sees(e, seat)][-LOG_SHOWN:],
        }
        if seat is not None:
            room = self.rooms[seat]
            data["my_room"] = ROOM_NAMES[room]
            data["card_text"] = text.own_card_line(self.cards[seat], self.game.simplified)
            data["my_card"] = self._own_card(seat)
            data["known"] = self._facts(seat)
            data["talk_left"] = self.budgets[seat]
            data["offers_to_me"] = [{"seat": o, "name": name(o), "kind": how} for o, t, how in self.offers if t == seat]
            data["my_offers"] = [{"seat": t, "name": name(t), "kind": how} for o, t, how in self.offers if o == seat]
            if self.leaders[room] is not None and not self.game.simplified:
                data["votes_in_room"] = {name(int(v)): name(t) for v, t in self.votes.items()
                                         if self.rooms[int(v)] == room}
        if over:
            data["cards"] = [{"seat": s, "name": name(s), "card": CARD_NAMES[c], "team": TEAM_NAMES[team_of(c)],
                              "room": ROOM_NAMES[self.rooms[s]]} for s, c in enumerate(self.cards)]
            data["winner"] = TEAM_NAMES[RED] if self.red_wins() else TEAM_NAMES[BLUE]
            data["result"] = self.result_text()
        return Observation(seat, data, self._observation_text(data, seat))

    def _observation_text(self, data: dict[str, Any], seat: int | None) -> str:
        name = self.game.seat_name
        phase_words = {"talk": "talking", "hostages": "Leaders choose hostages", "parley": "Leaders' parley",
                       "gamble": "the Gambler's bet", "over": "game over"}
        counts = data["hostages_per_round"]
        lines = [f"Two Rooms and a Boom, round {data['round']} of {ROUNDS} ({phase_words[data['phase']]}). "
                 f"Hostages per room: {', '.join(map(str, counts))} in rounds 1-{ROUNDS}."]
        if seat is not None:
            lines.append(f"You are {name(seat)}, in {data['my_room']}. {data['card_text']}")
            lines.append("What you know about cards: " + "; ".join(data["known"]) + ".")
        for room in data["rooms"]:
            leader = f"Leader {room['leader_name']}" if room["leader_name"] else "no Leader yet"
            people = ", ".join(f"{m['name']} ({m['talk_left']} talk left)" if data["phase"] == "talk" else m["name"]
                               for m in room["members"])
            lines.append(f"{room['name']} ({leader}): {people}.")
        if seat is not None:
            if data["offers_to_me"]:
                lines.append("Share offers to you (accept on your turn): " + "; ".join(
                    f"{o['name']} offers a {'card' if o['kind'] == 'card' else 'colour'} share"
                    for o in data["offers_to_me"]) + ".")
            if data["my_offers"]:
                lines.append("Your open share offers: " + "; ".join(
                    f"{o['kind'] if o['kind'] == 'card' else 'colour'} share to {o['name']}"
                    for o in data["my_offers"]) + ".")
            if data.get("votes_in_room"):
                lines.append("Usurp votes in your room: " + "; ".join(
                    f"{voter} for {target}" for voter, target in data["votes_in_room"].items()) + ".")
        if data["status"] == "playing":
            lines.append(f"To act now: {', '.join(data['to_act'])}.")
        if data["log"]:
            lines.append("What you have seen and heard so far:" if seat is not None else "Public events so far:")
            lines += [f"- {entry['text']}" for entry in data["log"]]
        if data["status"] == "over":
            lines.append("All cards: " + "; ".join(f"{c['name']} {c['card']} ({c['room']})" for c in data["cards"])
                         + ".")
            lines.append(data["result"])
        return "\n".join(lines)

    def _own_label(self, seat: int, action_id: str) -> str:
        name = self.game.seat_name
        kind, *rest = action_id.split(":")
        room = ROOM_NAMES[self.rooms[seat]]
        if kind == "nominate_leader":
            return f"Appoint {name(int(rest[0]))} Leader of {room}"
        if kind == "offer_share":
            what = "card share (you both see each other's whole card)" if rest[1] == "card" else \
                "colour share (you both see only each other's team colour)"
            return f"Offer {name(int(rest[0]))} a {what}"
        if kind == "accept_share":
            how = next(h for o, t, h in self.offers if o == int(rest[0]) and t == seat)
            return f"Accept {name(int(rest[0]))}'s {'card' if how == 'card' else 'colour'} share"
        if kind == "reveal_public":
            return f"Reveal your card to everyone in {room}"
        if kind == "vote_usurp":
            target = int(rest[0])
            return f"Vote to make {'yourself' if target == seat else name(target)} Leader of {room} (usurp)"
        if kind == "abdicate":
            return f"Abdicate: hand the leadership of {room} to {name(int(rest[0]))}"
        if kind == "hostages":
            seats = [int(s) for s in rest[0].split(",")]
            return f"Send {text.seats_words(seats, name)} to the other room{text.hostage_words(len(seats))}"
        if kind == "parley_pass":
            return "Say nothing in the parley"
        if kind == "gamble":
            return f"Bet that {rest[0].title()} wins"
        return "Done talking for this round"

    def action_labels(self, seat: int, action_id: str, text_in: str | None = None) -> ActionLabels:
        legal = {a.id for a in self.legal_actions(seat)} | {t.id for t in self.text_actions(seat)}
        if action_id not in legal:
            return super().action_labels(seat, action_id, text_in)
        if text_in is not None:
            text_in = " ".join(str(text_in).split())
        event = self._event_for(seat, action_id, text_in)
        name = self.game.seat_name

        def word(viewer: int | None) -> str:
            return text.describe(event, viewer, name) if self._sees(event, viewer) else text.outsider(event, name)

        return ActionLabels(by_seat=tuple(word(v) for v in range(self.game.num_seats)), public=word(None))
