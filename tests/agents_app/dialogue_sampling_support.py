"""Shared helper of the dialogue sampling tests (test_dialogue_sampling.py, test_seed_intervals.py): a scripted model
that samples its move as a real one does, greedy at temperature 0 and seeded above it."""

from __future__ import annotations

import hashlib
import re

from tests.support.openai_server import ScriptedReply

_MOVES = re.compile(r"^- ([^:\s]+(?::[^:\s]+)*): ", re.MULTILINE)


def sampling_model(body) -> ScriptedReply:
    """A model that samples as a real one does: greedy (a function of the prompt) at temperature 0, a function of
    the prompt and the seed above it."""
    text = "\n".join(m.get("content") or "" for m in body["messages"] if m.get("role") == "user")
    moves = [m for m in _MOVES.findall(text.split("Your legal moves", 1)[-1]) if m != "accept"]
    sampled = float(body.get("temperature") or 0) > 0
    digest = hashlib.sha256(f"{text}|{body.get('seed') if sampled else ''}".encode()).hexdigest()
    return ScriptedReply.text({"move": moves[int(digest, 16) % len(moves)], "message": f"Sample {digest[:8]}."})
