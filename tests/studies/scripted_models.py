"""The scripted OpenAI-compatible "models" of the study-bot acceptance runs (tests/studies/test_study_bots_gnomes.py,
test_study_bots_santorini.py): they read the prompt the LLM agent sends, as a model would, and answer with seeded
choices."""

from __future__ import annotations

import random
import re
import threading

from tests.support.openai_server import ScriptedReply

_LISTED = re.compile(r"Available actions \(id: label\):\n((?:.+\n?)+)")
_DIRECTION = re.compile(r"\(partner\): .*?\b(up|down|left|right|stay)\b", re.IGNORECASE)
_TOKEN = re.compile(r"The token is at column (\d), row (\d)")
_TREASURE = re.compile(r"The treasure is at column (\d), row (\d)")
_OPEN = re.compile(r"\b(right|up|left|down) open\b")
_STEPS = {"right": (1, 0), "left": (-1, 0), "up": (0, -1), "down": (0, 1)}
ANSWER_LINE = "I cannot tell where the treasure is from my side; which way should I go?"


class _SeededModel:
    """A seeded model, shared by the server's threads: its choices are drawn under a lock."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.lock = threading.Lock()

    @staticmethod
    def read(body) -> tuple[str, list[str] | None]:
        """The prompt's text, and the ids of the latest action list in it (None when none was listed)."""
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []) if isinstance(m, dict))
        blocks = _LISTED.findall(text)
        if not blocks:
            return text, None
        return text, [line.split(": ", 1)[0] for line in blocks[-1].splitlines() if ": " in line]


class ScriptedSantoriniModel(_SeededModel):
    """Plays a seeded random action of the latest list it was shown."""

    def __call__(self, body) -> ScriptedReply:
        _text, ids = self.read(body)
        with self.lock:
            return ScriptedReply.text({"action": self.rng.choice(ids)} if ids else {"explain": "moves"})


class ScriptedGnomesModel(_SeededModel):
    """The LLM-partner condition's model, reading its observation: when it sees the treasure it takes an open
    step towards it and tells its partner which way; otherwise it follows the last direction its partner named in
    the chat when that move is listed, else a seeded random open move. Asked to answer between its moves (no action
    list), it answers."""

    def __call__(self, body) -> ScriptedReply:
        text, ids = self.read(body)
        if ids is None:
            return ScriptedReply.text({"message": ANSWER_LINE})
        state = text.split("<state>")[-1]
        open_moves = [m for m in _OPEN.findall(state) if m in ids] or ids
        token, treasure = _TOKEN.search(state), _TREASURE.search(state)
        named = [d.lower() for d in _DIRECTION.findall(state) if d.lower() in ids]
        message = None
        with self.lock:
            if token and treasure:
                (x, y), (tx, ty) = map(int, token.groups()), map(int, treasure.groups())
                towards = [m for m in _STEPS if abs(x + _STEPS[m][0] - tx) + abs(y + _STEPS[m][1] - ty)
                           < abs(x - tx) + abs(y - ty)]
                closer = [m for m in open_moves if m in towards]
                action = self.rng.choice(closer or open_moves)
                # Guide the partner too: the way to the treasure, which a wall on this side may not block on theirs.
                message = f"I went {action}. Go {self.rng.choice(towards)} next, the treasure is that way."
            else:
                action = named[-1] if named else self.rng.choice(open_moves)
                if self.rng.random() < 1 / 3:
                    message = f"I went {action}. Which way now?"
        return ScriptedReply.text({"action": action, **({"message": message} if message else {})})
