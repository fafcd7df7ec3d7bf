"""What a seat of Are You the Traitor? may know, as facts keyed by field for pages (the board presenter reads these,
never the sentences of views.py). A mixin over TraitorState that only reads the state; views.SeatViews adds these
facts to every observation's data next to the sentences language models read.

Each fact follows the same reveal rules as the sentences: a seat's own role and what the eyes-closed steps showed it
only in its own view while the round's characters are hidden; a finished round's characters for everybody (its
Stop call revealed them); treasure draws and Magic Ring thefts worded per viewer, as in the text.
"""

from __future__ import annotations

from typing import Any

from .deck import KEYHOLDER, WIZARD, character_name, team_of


class BoardFacts:
    def _seat_fact(self, seat: int) -> dict[str, Any]:
        """One seat's character this round, for a viewer allowed to know it."""
        character, alignment = self.characters[seat], self.alignments[seat]
        return {"seat": seat, "name": self.game.seat_name(seat), "character": character_name(character, alignment),
                "team": team_of(character, alignment).capitalize()}

    def role_fact(self, seat: int) -> dict[str, Any]:
        """The seat's own role card while the round's characters are hidden (only in its own view): its character
        and team, whether it is a Wizard or the Keyholder (whose Stop hands over the Key), and the other seats'
        characters the eyes-closed steps showed it (with the sentence the text uses for each)."""
        character = self.characters[seat]
        shown = [{**self._seat_fact(s), "text": self._fact(s)} for s in self.known_seats(seat) if s != seat]
        own = self._seat_fact(seat)
        return {"character": own["character"], "team": own["team"], "wizard": character == WIZARD,
                "keyholder": character == KEYHOLDER, "shown": shown}

    def talk_facts(self, viewer: int | None, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The round's talk as entries: who spoke (``you``: the viewer), what was said, or that the seat passed."""
        return [{"seat": e["s"], "name": self.game.seat_name(e["s"]), "you": e["s"] == viewer,
                 "text": (e.get("t") or "") if e["k"] == "say" else "", "passed": e["k"] != "say"} for e in events]

    def round_fact(self, viewer: int | None) -> dict[str, Any] | None:
        """The latest resolved round: its number, the caller and target seats, whether the call handed over the
        Key (the caller was the Keyholder), the winning team, every seat's character that round (public once the
        round is over) and the draw and Magic Ring lines as worded for this viewer."""
        last = self.last
        if not last:
            return None
        name = self.game.seat_name
        characters = [{"seat": s, "name": name(s), "character": character_name(c, a),
                       "team": team_of(c, a).capitalize()}
                      for s, (c, a) in enumerate(zip(last["characters"], last["alignments"], strict=True))]
        return {"round": last["round"], "caller": last["caller"], "target": last["target"],
                "handoff": last["characters"][last["caller"]] == KEYHOLDER, "team": last["team"].capitalize(),
                "characters": characters, "lines": self.treasure_lines(viewer)}
