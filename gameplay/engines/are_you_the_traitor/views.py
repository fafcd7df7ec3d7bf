"""What each seat of Are You the Traitor? sees: its observation (data and text), per-viewer action labels and the
secrets the leak checks look for. A mixin over TraitorState that only reads the state.

Every private fact is worded as one fixed sentence ("Player 4 is the Keyholder", "Player 2's treasure: ...",
"Player 2 drew Bag of Gold (3)"), shown only to the seats allowed to know it and listed in ``secrets()`` under each
of them, so the conformance suite's check (a value listed for several seats is fine in each of their views, and
in no other) tests exactly the reveal rules. Public wording never uses these sentence forms: a finished round's
characters read "Player 4: Keyholder", a public draw "Player 2 drew a treasure card".
"""

from __future__ import annotations

from typing import Any

from ..api import ActionLabels, Observation
from .deck import (
    EVIL,
    GUARD,
    KEYHOLDER,
    KEYHOLDER_SHOWN_FROM,
    RING,
    TRAITOR,
    TRAITORS_MEET_FROM,
    WIZARD,
    card_words,
    character_name,
    points,
)
from .facts import BoardFacts

TALK_SHOWN = 40  # latest talk events of the round worded in observations

_FACT = {KEYHOLDER: "the Keyholder", GUARD: "a Guard", TRAITOR: "a Traitor"}
_BRIEF = {
    KEYHOLDER: ("You are the Keyholder (team Good)", "Give the Key to a Good Wizard: your Stop can only hand the "
                "Key to a Wizard, and which Wizard is Good you must work out."),
    GUARD: ("You are a Guard (team Good)", "Find a Traitor and call Stop on them; a Stop on anyone else makes "
            "Evil win."),
    TRAITOR: ("You are a Traitor (team Evil)", "Mislead the table so that Good calls Stop on the wrong player or "
              "the Key goes to the Evil Wizard. You may never call Stop."),
    "good": ("You are a Wizard and your secret alignment is Good (team Good)", "Call Stop on a Traitor, or win "
             "the Keyholder's trust so the Key comes to you; a Stop on a non-Traitor makes Evil win."),
    EVIL: ("You are a Wizard and your secret alignment is Evil (team Evil)", "Find the Keyholder and call Stop "
           "on them, or win the Keyholder's trust so the Key comes to you; a Stop on anyone else makes Good win."),
}


class SeatViews(BoardFacts):
    # --- private sentences -----------------------------------------------------------------------------------
    def _fact(self, seat: int) -> str:
        character = self.characters[seat]
        if character == WIZARD:
            what = "an Evil Wizard" if self.alignments[seat] == EVIL else "a Good Wizard"
        else:
            what = _FACT[character]
        return f"{self.game.seat_name(seat)} is {what}"

    def _brief(self, seat: int) -> tuple[str, str]:
        character = self.characters[seat]
        return _BRIEF[self.alignments[seat] or "good"] if character == WIZARD else _BRIEF[character]

    def _roles_hidden(self) -> bool:
        return self.phase in ("talk", "handoff")

    def known_facts(self, seat: int) -> list[str]:
        """The character sentences ``seat`` may know this round: its own, plus the eyes-closed reveals."""
        return [self._fact(s) for s in self.known_seats(seat)]

    def known_seats(self, seat: int) -> list[int]:
        """Whose characters ``seat`` knows this round (while they are hidden): its own first, then the reveals."""
        if not self._roles_hidden():
            return []
        n, character = self.game.num_seats, self.characters[seat]
        seats = [seat]
        if n >= KEYHOLDER_SHOWN_FROM and character in (GUARD, TRAITOR):
            seats.append(self.keyholder())
        if n >= TRAITORS_MEET_FROM and character == TRAITOR:
            seats += [s for s, c in enumerate(self.characters) if c == TRAITOR and s != seat]
        return seats

    def hand_sentence(self, seat: int) -> str:
        hand = self.hands[seat]
        if not hand:
            return ""  # no cards is public (card counts are)
        return f"{self.game.seat_name(seat)}'s treasure: {', '.join(card_words(c) for c in hand)} " \
               f"({points(hand)} points)"

    def _draw_sentence(self, seat: int, card: str) -> str:
        return f"{self.game.seat_name(seat)} drew {card_words(card)}"

    def _ring_sentence(self, thief: int, victim: int, card: str) -> str:
        name = self.game.seat_name
        return f"{name(thief)} took {card_words(card)} from {name(victim)} with a Magic Ring"

    def secrets(self) -> dict[int, list[str]]:
        n = self.game.num_seats
        result: dict[int, list[str]] = {s: [] for s in range(n)}
        if self.phase == "over":
            return result  # the end reveals everything
        for seat in range(n):
            if self._roles_hidden():
                result[seat] += [*self.known_facts(seat), self._brief(seat)[0]]
            if self.hands[seat]:
                result[seat].append(self.hand_sentence(seat))
        if self.last:
            for seat, card in self.last["draws"]:
                if card is not None:
                    result[seat].append(self._draw_sentence(seat, card))
            for thief, victim, card in self.last["rings"]:
                sentence = self._ring_sentence(thief, victim, card)
                result[thief].append(sentence)
                result[victim].append(sentence)
        return result

    # --- the last round, per viewer ----------------------------------------------------------------------------
    def last_round_lines(self, viewer: int | None) -> list[str]:
        last = self.last
        if not last:
            return []
        name = self.game.seat_name
        caller, target = last["caller"], last["target"]
        how = "handed the Key to" if last["characters"][caller] == KEYHOLDER else "called Stop on"
        reveal = ", ".join(f"{name(s)}: {character_name(c, a)}"
                           for s, (c, a) in enumerate(zip(last["characters"], last["alignments"], strict=True)))
        return [f"Round {last['round']}: {name(caller)} {how} {name(target)}. {last['team'].capitalize()} won the "
                f"round.", f"Characters that round: {reveal}.", *self.treasure_lines(viewer)]

    def treasure_lines(self, viewer: int | None) -> list[str]:
        """The latest round's treasure draws and Magic Ring uses, worded for ``viewer`` (cards only as it may know)."""
        last = self.last
        if not last:
            return []
        name = self.game.seat_name
        lines = []
        for seat, card in last["draws"]:
            if card is None:
                lines.append(f"{name(seat)} could not draw: every treasure card is held.")
            elif seat == viewer or self.phase == "over":
                lines.append(self._draw_sentence(seat, card) + ".")
            else:
                lines.append(f"{name(seat)} drew a treasure card.")
        for thief, victim, card in last["rings"]:
            if viewer in (thief, victim) or self.phase == "over":
                lines.append(self._ring_sentence(thief, victim, card) + ".")
            else:
                lines.append(f"{name(thief)} used a Magic Ring on {name(victim)} and took a card at random.")
        return lines

    def _talk_line(self, event: dict[str, Any], viewer: int | None) -> str:
        who = "You" if event["s"] == viewer else self.game.seat_name(event["s"])
        if event["k"] == "say":
            return f"{who}: \u201c{event['t']}\u201d"
        return f"{who} passed." if who != "You" else "You passed."

    # --- observations --------------------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        name = self.game.seat_name
        n = self.game.num_seats
        options = self.game.options
        data: dict[str, Any] = {
            "seat": seat,
            "you": name(seat) if seat is not None else None,
            "phase": self.phase,
            "round": self.round_no,
            "max_rounds": options["max_rounds"],
            "target_points": options["target_points"],
            "tick": self.tick,
            "ticks_before_handoff": options["ticks_before_handoff"],
            "talk_order": [name(s) for s in self._from(self.start)],
            "to_act": [name(s) for s in self.current_seats()],
            "my_turn": seat is not None and seat in self.current_seats(),
            "wizards": [name(s) for s in self.wizards()] if self._roles_hidden() else [],
            "card_counts": [len(h) for h in self.hands],
            "rounds_won": list(self.rounds_won),
            "talk": [self._talk_line(e, seat) for e in self.talk[-TALK_SHOWN:]] if self._roles_hidden() else [],
            "last_round": self.last_round_lines(seat),
            "history": list(self.history),
            # Facts for pages (facts.py), keyed by field: the same reveals as the sentences above.
            "wizard_seats": self.wizards() if self._roles_hidden() else [],
            "talk_entries": self.talk_facts(seat, self.talk[-TALK_SHOWN:]) if self._roles_hidden() else [],
            "round_result": self.round_fact(seat),
        }
        if seat is not None:
            hand = self.hands[seat]
            data["treasure"] = [card_words(c) for c in hand]
            data["treasure_text"] = self.hand_sentence(seat)
            data["points"] = points(hand)
            data["rings"] = hand.count(RING)
            if self._roles_hidden():
                head, goal = self._brief(seat)
                data["role"] = f"{head}. {goal}"
                data["known"] = self.known_facts(seat)
                data["my_role"] = self.role_fact(seat)
        if self.phase == "over":
            data["final_points"] = self.totals()
            data["final_treasure"] = [[card_words(c) for c in h] for h in self.hands]
            data["winners"] = [name(s) for s in self.winners]
            data["winner_seats"] = list(self.winners)
        return Observation(seat, data, self._text(data, seat, n))

    def _text(self, data: dict[str, Any], seat: int | None, n: int) -> str:
        name = self.game.seat_name
        lines = [f"Are You the Traitor? with {n} players. Round {data['round']} of at most {data['max_rounds']}; "
                 f"the game ends after a round in which someone has {data['target_points']}+ points."]
        if seat is not None:
            lines.append(f"You are {name(seat)}.")
        if self.phase == "over":
            lines += ["The game is over.", *data["last_round"]]
            lines.append("Final points: " + ", ".join(f"{name(s)} {t}" for s, t in enumerate(data["final_points"]))
                         + ".")
            for s, cards in enumerate(data["final_treasure"]):
                lines.append(f"{name(s)} held: {', '.join(cards) or 'nothing'}.")
            # A result every seat shares is a draw, as the match page says; otherwise the winners by name.
            lines.append(self.winners_sentence())
            return "\n".join(lines)
        if self._roles_hidden():
            if seat is not None:
                lines.append(data["role"])
                lines.append("What you know this round: " + "; ".join(data["known"]) + ".")
            lines.append(f"Wizards this round (alignment secret): {', '.join(data['wizards'])}.")
        if seat is not None:
            mine = data["treasure_text"]
            lines.append(f"{mine}." if mine else "Your treasure: none yet (0 points).")
        lines.append("Treasure cards held: " + ", ".join(f"{name(s)} {c}" for s, c in enumerate(data["card_counts"]))
                     + ".")
        if len(self.history) > 1:  # the latest round is worded in full below
            lines += ["Earlier rounds:", *(f"  {h}" for h in self.history[:-1])]
        if data["last_round"]:
            lines += ["Last round:", *(f"  {line}" for line in data["last_round"])]
        if self.phase == "talk":
            lines.append(f"Talk, tick {self.tick} of {data['ticks_before_handoff']} (order this round: "
                         f"{', '.join(data['talk_order'])}). Said so far this round:")
            lines += [f"  {line}" for line in data["talk"]] or ["  (nothing yet)"]
        elif self.phase == "handoff":
            lines += ["Said this round:", *(f"  {line}" for line in data["talk"])]
            # Who acts now shows the Keyholder a moment early; the hand-off reveals every character anyway.
            lines.append("Talk time is over: the Keyholder must now hand the Key to a Wizard.")
        else:
            lines.append("Magic Ring step: every player may now use a Magic Ring to take a random treasure card from "
                         "another player; the others simply go on.")
        if data["my_turn"]:
            lines.append("It is your turn.")
        else:
            lines.append(f"Waiting for: {', '.join(data['to_act'])}.")
        return "\n".join(lines)

    # --- labels --------------------------------------------------------------------------------------------------
    def action_labels(self, seat: int, action_id: str, text_in: str | None = None) -> ActionLabels:
        legal = {a.id for a in self.legal_actions(seat)} | {t.id for t in self.text_actions(seat)}
        if action_id not in legal:
            return super().action_labels(seat, action_id, text_in)
        name = self.game.seat_name
        me = name(seat)
        kind, _, arg = action_id.partition(":")
        target = int(arg) if arg else None
        own = other = ""
        victim_label = None
        if kind == "say":
            said = " ".join(str(text_in or "").split())
            own, other = f"You say: {said}", f"{me} says: {said}"
        elif kind == "pass":
            own, other = "You pass.", f"{me} passes."
        elif kind == "stop":
            verb = "hand the Key to" if self.characters[seat] == KEYHOLDER else "call Stop on"
            own, other = f"You {verb} {name(target)}.", f"{me} calls Stop on {name(target)}."
            victim_label = f"{me} calls Stop on you."
        elif kind == "ring":
            own, other = f"You use a Magic Ring on {name(target)}.", f"{me} uses a Magic Ring on {name(target)}."
            victim_label = f"{me} uses a Magic Ring on you."
        else:
            own = "You keep your Magic Ring." if RING in self.hands[seat] else "You go on."
            other = f"{me} does not use a Magic Ring."
        by_seat = tuple(own if v == seat else victim_label if v == target and victim_label else other
                        for v in range(self.game.num_seats))
        return ActionLabels(by_seat=by_seat, public=other)
