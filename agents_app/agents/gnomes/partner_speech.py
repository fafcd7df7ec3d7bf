"""How the simulated partner words what it means: plain templates, or lines people might type.

The template speech is what the partner always said: short sentences the rule-based parser reads as meant, so
an evaluation with it tests the planner and the flag exchange, not the language module. The free-form speech
draws each line from a labelled set written independently of the parser (``fixtures/gnomes/partner_freeform
.jsonl``: paraphrases, typos, indirect speech), so the agent must understand people as they talk. Both give
the same meanings in the same situations (``use``), so the partner's behaviour does not change with its speech.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from .intents import RuleBasedParser

USES = ("hint", "wait", "accept", "refuse_wall", "refuse_plain", "answer_no_treasure", "ask", "chatter")


class TemplateSpeech:
    """The partner's plain template lines."""

    name = "template"
    converses = False  # no questions or small talk of its own: only hints, answers and replies to requests
    _HINTS = (
        "Go {move}",
        "Please move {move}",
        "Head {move} next",
        "Try going {move}",
        "Move {move}, the treasure is {bearing}",
    )
    _REFUSALS = (
        "I can't go {move}, there's a wall",
        "There is a wall on my side if I go {move}",
        "Sorry, {move} is blocked for me",
    )
    _ACCEPTS = ("ok", "Sure", "Okay, doing it")
    _NO_TREASURE_HERE = "The treasure is not on my side."

    def __init__(self):
        self._parser = RuleBasedParser()

    def line(self, use: str, rng: random.Random, move: str | None = None, bearing: str = "") -> str:
        if use == "hint":
            return rng.choice(self._HINTS).format(move=move, bearing=bearing)
        if use == "refuse_wall":
            return rng.choice(self._REFUSALS).format(move=move)
        if use == "accept":
            return rng.choice(self._ACCEPTS)
        if use == "answer_no_treasure":
            return self._NO_TREASURE_HERE
        raise ValueError(f"the template partner has no {use!r} line")

    def hinted_move(self, text: str) -> str | None:
        """The move one of this speech's own hint lines asked for."""
        return self._parser.parse(text).action


class FreeformSpeech:
    """Lines from a labelled set: for a hint, one naming that move; for a wall, one naming the blocked move or
    none; for an acceptance, one naming no move or the same move."""

    name = "freeform"
    converses = True  # asks where the treasure is, and makes small talk now and then

    def __init__(self, rows: Iterable[Mapping]):
        self._by_use: dict[str, list[Mapping]] = defaultdict(list)
        for row in rows:
            if row.get("use") in USES:
                self._by_use[row["use"]].append(row)
        self._hints = {row["text"]: row["move"] for row in self._by_use["hint"]}
        missing = [use for use in USES if use not in ("wait", "refuse_plain") and not self._by_use[use]]
        if missing:
            raise ValueError(f"the free-form set has no lines for {', '.join(missing)}")

    @classmethod
    def from_file(cls, path: Path) -> FreeformSpeech:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return cls(row for row in rows if "_comment" not in row)

    def line(self, use: str, rng: random.Random, move: str | None = None, bearing: str = "") -> str:
        rows = self._by_use[use]
        if use == "hint":
            rows = [r for r in rows if r.get("move") == move]
        elif use in ("refuse_wall", "accept"):
            rows = [r for r in rows if r.get("move") in (None, move)]
        if not rows:
            raise ValueError(f"no free-form {use!r} line for {move!r}")
        return str(rng.choice(rows)["text"])

    def hinted_move(self, text: str) -> str | None:
        return self._hints.get(text)
