"""What each seat of Codenames sees: its observation (data and text), action labels and the secrets.

The key is the only hidden information. It reaches a seat only as "WORD=identity" pieces (APPLE=assassin), and only
a Spymaster's observation holds them; nothing public is ever written with "=", so each piece is a distinctive string
the leak checks can look for. Revealed cards are public and are written "BANK (Blue agent)". When the game is over
the whole key is public: every seat's cards carry it, the text writes an unrevealed card "BANK (Blue agent, never
revealed)", and there are no secrets left.
"""

from __future__ import annotations

from typing import Any

from ..api import ActionLabels, Observation
from .clues import UNLIMITED
from .words import IDENTITY_NAMES, TEAM_NAMES

ROW = 5


def key_piece(word: str, identity: str) -> str:
    """A Spymaster's view of one unrevealed card, e.g. 'APPLE=assassin' (a secret)."""
    return f"{word}={identity}"


def number_text(number: int | None) -> str:
    return UNLIMITED if number is None else str(number)


class SeatViews:
    def _is_spymaster(self, seat: int | None) -> bool:
        return seat is not None and seat < 2

    def _describe(self, event: dict[str, Any]) -> str:
        name = self.game.seat_name
        kind = event["k"]
        if kind == "clue":
            return f"{name(event['s'])} gave the clue {event['w']}, {number_text(event['n'])}."
        if kind == "invalid":
            return (f"{name(event['s'])} gave the invalid clue {event['w']}, {number_text(event['n'])} "
                    f"({event['why']}): the turn ends and {TEAM_NAMES[1 - event['t']]} covers one of its agents.")
        if kind == "guess":
            return f"{name(event['s'])} guessed {self.words[event['c']]}: {IDENTITY_NAMES[event['id']]}."
        if kind == "cover":
            word, identity = self.words[event["c"]], IDENTITY_NAMES[event["id"]]
            return f"{name(event['s'])} covered {word} ({identity}) as the penalty."
        return f"{name(event['s'])} ended the turn."

    def _cards(self, seat: int | None) -> list[dict[str, Any]]:
        # At the end the whole key is shown to every seat (and to spectators): every card names its identity, and
        # an unrevealed one carries its key piece as a Spymaster's does.
        over = self.is_terminal()
        spymaster = self._is_spymaster(seat) or over
        cards = []
        for cell, word in enumerate(self.words):
            shown = self.revealed[cell]
            card: dict[str, Any] = {"cell": cell, "word": word, "revealed": shown,
                                    "identity": IDENTITY_NAMES[self.key[cell]] if shown or over else None}
            if spymaster:
                card["key"] = "" if shown else key_piece(word, self.key[cell])
            cards.append(card)
        return cards

    def observation(self, seat: int | None) -> Observation:
        game = self.game
        over = self.is_terminal()
        current = self.current_seats()
        data: dict[str, Any] = {
            "seat": seat,
            "role": game.role(seat) if seat is not None else None,
            "team": TEAM_NAMES[game.teams()[seat]] if seat is not None else None,
            "status": "over" if over else "playing",
            "my_turn": seat is not None and seat in current,
            "phase": self.phase,
            "starting_team": TEAM_NAMES[self.starting],
            "team_to_play": None if over else TEAM_NAMES[self.team],
            "acting": ", ".join(game.seat_name(s) for s in current),
            "cards": self._cards(seat),
            "agents_left": {TEAM_NAMES[t]: self.agents_left(t) for t in (0, 1)},
            "clue": None if self.clue is None else {"word": self.clue["w"], "number": number_text(self.clue["n"])},
            "guesses_made": self.guesses,
            "guesses_left": self.guesses_left() if self.clue else None,
            "turns_played": self.turns_played,
            "history": [self._describe(e) for e in self.history],
            "result": self.result_text() or "",
            "end_reason": self.end_reason() or "",
        }
        return Observation(seat, data, self._text(seat, data))

    def _text(self, seat: int | None, data: dict[str, Any]) -> str:
        game = self.game
        lines = ["Codenames."]
        if seat is not None:
            role = "the Spymaster" if self._is_spymaster(seat) else "a Field Operative"
            you = f"You are {game.seat_name(seat)}: {role} of the {data['team']} team."
            if self._is_spymaster(seat):
                you += (" You see the key: each unrevealed word is written WORD=identity (red or blue for an "
                        "agent of that team, bystander, assassin). Never tell it; give clues only.")
            else:
                you += " You do not see the key; you guess from your Spymaster's clues."
            lines.append(you)
        left = data["agents_left"]
        lines.append(f"{data['starting_team']} started. Agents still hidden: Red {left['Red']}, Blue {left['Blue']}.")
        if data["status"] == "over":
            lines.append("Words (cell number, word, identity; the key is shown to everyone now the game is over):")
        else:
            lines.append("Words (cell number, word; revealed words show their identity):")
        cards = data["cards"]
        for start in range(0, len(cards), ROW):
            lines.append("  " + " | ".join(self._card_text(c) for c in cards[start:start + ROW]))
        lines.append("History: " + (" ".join(data["history"]) if data["history"] else "no clue yet."))
        if data["status"] == "over":
            lines.append(f"The game is over. {data['result']} {data['end_reason']}")
        else:
            lines.append(self._turn_text(seat, data))
        return "\n".join(lines)

    @staticmethod
    def _card_text(card: dict[str, Any]) -> str:
        if card["revealed"]:
            return f"{card['cell']} {card['word']} ({card['identity']})"
        if card["identity"]:  # the game is over: an unrevealed card's identity is shown to everyone
            return f"{card['cell']} {card['word']} ({card['identity']}, never revealed)"
        return f"{card['cell']} {card.get('key') or card['word']}"

    def _turn_text(self, seat: int | None, data: dict[str, Any]) -> str:
        mine = data["my_turn"]
        team = data["team_to_play"]
        if self.phase == "clue":
            if not mine:
                return f"{team}'s turn: {data['acting']} gives a clue."
            if self.game.options["gamebench_unchecked_clues"]:  # GameBench's reader: clues.read_gamebench
                return "Your turn: give a clue as WORD,N (N a whole number, 0 for no limit)."
            return "Your turn: give a clue as WORD,N (N from 0 to 9, or unlimited)."
        if self.phase == "cover":
            return ("Your turn: the other team's clue was invalid; cover one of your own agents." if mine
                    else f"{data['acting']} covers one of their agents (penalty).")
        clue = data["clue"]
        left = data["guesses_left"]
        allowed = "no limit on guesses" if left is None else f"{left} guess{'es' if left != 1 else ''} left"
        about = f"{team}'s clue is {clue['word']}, {clue['number']} ({data['guesses_made']} guessed so far, {allowed})."
        if mine:
            stop = " or end the turn" if data["guesses_made"] or self.game.options["gamebench_end_turn_anytime"] else ""
            return f"{about} Your turn: guess a word by its cell number{stop}."
        return f"{about} {data['acting']} is guessing."

    def secrets(self) -> dict[int, list[str]]:
        result: dict[int, list[str]] = {seat: [] for seat in range(self.game.num_seats)}
        if self.is_terminal():
            return result  # the end shows the whole key to everyone
        hidden = [key_piece(w, self.key[c]) for c, w in enumerate(self.words) if not self.revealed[c]]
        result[0], result[1] = list(hidden), list(hidden)
        return result

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        name = self.game.seat_name(seat)
        if action_id == "clue":
            try:
                clue, why = self.read_clue(text or "")
                label = (f"{name} gives the invalid clue {clue.word}, {clue.number_text()}: the turn ends." if why
                         else f"{name} gives the clue {clue.word}, {clue.number_text()}.")
            except ValueError:
                label = f"{name} gives a clue."
        elif action_id == "end_turn":
            label = f"{name} ends the turn."
        elif ":" in action_id and action_id.split(":")[1].isdigit() and int(action_id.split(":")[1]) < len(self.words):
            cell = int(action_id.split(":")[1])
            verb = "covers" if action_id.startswith("cover:") else "guesses"
            label = f"{name} {verb} {self.words[cell]}: {IDENTITY_NAMES[self.key[cell]]}."
        else:
            label = f"{name}: {action_id}"
        return ActionLabels(by_seat=tuple(label for _ in range(self.game.num_seats)), public=label)
