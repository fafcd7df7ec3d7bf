"""A scripted model that plays any game from the LLM agent's prompt alone, and helpers to play whole matches of it.

``TableModel`` reads what the agent shows (the observation between <state> tags, "Available actions (id: label):"
and "Open-ended actions" lists), picks one move by a hash of the prompt (so a match replays identically) and, for an
open-ended action, writes a text. Two scripted mistakes exercise the agent's correction loop: a Codenames clue is
first a word of the grid (the engine refuses it), a Who is Spy description first names the seat's own word. The reply
after the correction is valid. Anything else the model is asked (a probe, a DEEP prompt) goes to ``other``.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
from collections.abc import Callable

from agents_app.models import AgentCall
from gameplay.models import Match
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.support.openai_server import ScriptedReply

_STATE = re.compile(r"<state>\n(.*?)\n</state>", re.DOTALL)
_OWN_WORD = re.compile(r"Your secret word is ([^.\s]+)\.")
_GRID_WORD = re.compile(r"\b\d+ ([A-Z][A-Z' -]*?)=")
CORRECTION = "Your reply was invalid"
# Clue words no Codenames grid of this project holds (each is checked against the seat's grid anyway).
CLUE_WORDS = ("quasar", "zephyr", "nebula", "fjord", "sphinx", "walrus", "yodel")
DESCRIPTIONS = (
    "Something many people know well",
    "You can find it in everyday life",
    "It comes in different sizes and shapes",
    "People have opinions about this one",
    "Often seen but rarely thought about",
    "Children learn about it early",
    "It can be pleasant in the right moment",
    "Common in stories and in real life",
)
SAYINGS = ("I trust the players on my left.", "Who has something to share?", "I am on the good side, believe me.",
           "Let us keep calm and compare notes.", "I have my doubts about the last speaker.")


def texts_of(body) -> list[tuple[str, str]]:
    """(role, text) of every message of a chat request body."""
    found = []
    for message in body.get("messages", []):
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        found.append((message.get("role", ""), "\n".join(p.get("text", "") for p in parts if p.get("type") == "text")))
    return found


def listed_moves(prompt: str) -> tuple[list[str], list[str]]:
    """(structured ids, open-ended ids) as the LLM agent's turn prompt lists them."""
    legal: list[str] = []
    text_ids: list[str] = []
    for header, into in (("Available actions (id: label):\n", legal),
                         ("Open-ended actions (reply with the id and your text):\n", text_ids)):
        start = prompt.rfind(header)
        if start < 0:
            continue
        for line in prompt[start + len(header):].split("\n"):
            if not line.strip() or ": " not in line:
                break
            into.append(line.split(": ", 1)[0])
    return legal, text_ids


class TableModel:
    """The scripted player (see the module docstring). ``moves`` counts move requests; ``mistakes`` the scripted
    wrong replies served, by kind."""

    def __init__(self, other: Callable | None = None):
        self.other = other
        self.lock = threading.Lock()
        self.mistakes = {"clue": 0, "describe": 0}
        self.moves = 0

    def __call__(self, body):
        messages = texts_of(body)
        turn = next((text for role, text in reversed(messages) if role == "user" and "<state>" in text), None)
        if turn is None or ("Available actions" not in turn and "Open-ended actions" not in turn):
            if self.other is not None:
                return self.other(body)
            return ScriptedReply.text({"explain": "nothing listed"})
        with self.lock:
            self.moves += 1
        correcting = messages[-1][0] == "user" and messages[-1][1].startswith(CORRECTION)
        state = _STATE.search(turn).group(1)
        legal, text_ids = listed_moves(turn)
        rng = random.Random(hashlib.sha256(state.encode()).hexdigest())
        if "clue" in text_ids:
            return ScriptedReply.text({"action": "clue", "text": self._clue(state, correcting)})
        if "describe" in text_ids:
            return ScriptedReply.text({"action": "describe", "text": self._description(state, rng, correcting)})
        choice = rng.choice(legal + text_ids)
        if choice in text_ids:
            return ScriptedReply.text({"action": choice, "text": rng.choice(SAYINGS)})
        return ScriptedReply.text({"action": choice})

    def _clue(self, state: str, correcting: bool) -> str:
        grid = [w.strip() for w in _GRID_WORD.findall(state)]
        if not correcting and grid:
            with self.lock:
                self.mistakes["clue"] += 1
            return f"{grid[0].lower()},1"  # a visible word: the engine refuses it
        word = next(w for w in CLUE_WORDS if not any(g in w.upper() or w.upper() in g for g in grid))
        return f"{word},1"

    def _description(self, state: str, rng: random.Random, correcting: bool) -> str:
        own = _OWN_WORD.search(state).group(1)
        if not correcting:
            with self.lock:
                self.mistakes["describe"] += 1
            return f"My word is {own}"  # names the own word: refused
        # Never one said before in this game (the engine refuses repeats by default): the state lists them all.
        said = state.lower()
        fresh = [d for d in DESCRIPTIONS if own.lower() not in d.lower() and d.lower() not in said]
        if fresh:
            return rng.choice(fresh)
        return f"Another clue from me number {said.count(' said: ') + 1}"


def play_agents_match(game_id: str, agent_names: list[str], *, seed: int, options: dict | None = None) -> Match:
    """A match of only agent seats, played to the end by eager Celery (as the scripted-match tests do)."""
    match = services.create_match(
        game_id,
        [SeatController("agent", agent_name=name) for name in agent_names],
        seed=seed,
        options=options or {},
        host_seat=None,
    )
    match.refresh_from_db()
    return match


def calls_of(match: Match) -> list[AgentCall]:
    return list(AgentCall.objects.filter(match=match).order_by("version", "seat", "seq"))


def reply_json(call: AgentCall) -> dict:
    try:
        return json.loads(call.raw_reply)
    except ValueError:
        return {}


def spy_seats(seed: int, seats: int = 4, options: dict | None = None) -> list[int]:
    """Which seats the engine deals the spy word to for this seed (the match made with it deals the same)."""
    from gameplay.engines.registry import create_game

    return list(create_game("who_is_spy", options or {}, num_seats=seats).new_initial_state(seed).spies)


def play_spy_match(seed: int, spy: str, host: str, seats: int = 4) -> Match:
    """A Who is Spy match of LLM agents with ``spy`` on the spy seat(s) and ``host`` on the others (seed 002's guest
    setting), played to the end."""
    spies = spy_seats(seed, seats)
    return play_agents_match("who_is_spy", [spy if s in spies else host for s in range(seats)], seed=seed)
