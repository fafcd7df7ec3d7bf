"""Messages the Gnomes agent sends (seeds/003 §4.2): templated requests and wall notices, and inquiry answers.

Coordinates in facts are the engine's (x, y), 0-based with y = 0 the top row. People count from 1, so every
column and row shown in a message or prompt is shifted by one (column 1 is the left, row 1 the top).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.llm import describe_failure
from agents_app.agents.llm.client import ChatCaller

logger = logging.getLogger(__name__)

Cell = tuple[int, int]
MAX_ANSWER_CHARS = 300
_WALLED_ACTIONS = ("right", "up", "left", "down")


def suggest(flag: Flag) -> str:
    """The request for the partner's next move: "Can you move right?" (the paper's "Can you {}?")."""
    if flag.action is None:
        raise ValueError(f"{flag} is not a move")
    if flag is Flag.STAY:
        return "Can you stay put this turn?"
    return f"Can you move {flag.action}?"


def cannot(action: str) -> str:
    """The notice that our side has a wall where the partner asked us to go."""
    if action not in _WALLED_ACTIONS:
        raise ValueError(f"no wall can block {action!r}")
    return f"I cannot move {action} because there is a wall in that direction."


@dataclass(frozen=True)
class InquiryFacts:
    """Everything an inquiry answer may use. ``treasure`` is None whenever the treasure is not on our side."""

    token: Cell
    open_moves: tuple[str, ...]
    blocked_moves: tuple[str, ...]
    treasure: Cell | None
    suggestion: str | None
    turn: int
    turn_cap: int


def answer_inquiry(question: str, facts: InquiryFacts, caller: ChatCaller | None = None) -> str:
    """An answer to the partner's question: from the LLM when the decision has a ChatCaller (its calls record the
    request), else (or on failure) a template."""
    if caller is not None:
        try:
            return _llm_answer(question, facts, caller)
        except Exception as error:  # a failed call must still leave the partner with an answer
            logger.warning("LLM inquiry answer failed (%s); using a template", describe_failure(error))
    return template_answer(question, facts)


# --- Templates -----------------------------------------------------------------------------------------------

_TREASURE_QUESTION = re.compile(r"\b(treasure|gem|goal|prize|chest|gold|jewel)s?\b|\bwhere(\s+i|')s\s+it\b", re.I)
_TURNS_QUESTION = re.compile(r"\b(turns?|moves?|time)\b.*\b(left|remaining|have)\b|\bhow\s+long\b", re.I)


def template_answer(question: str, facts: InquiryFacts) -> str:
    if _TREASURE_QUESTION.search(question):
        return _treasure_sentence(facts)
    if _TURNS_QUESTION.search(question):
        return f"We are on turn {facts.turn} of {facts.turn_cap}."
    return _moves_sentence(facts)


def _treasure_sentence(facts: InquiryFacts) -> str:
    if facts.treasure is None:
        return "I can't see the treasure — it must be on your side. Which way should we go?"
    where = f"The treasure is on my side at {_cell_text(facts.treasure)}"
    offset = _offset_text(facts.token, facts.treasure)
    return f"{where} — the token is already on it." if not offset else f"{where} — from the token that is {offset}."


def _moves_sentence(facts: InquiryFacts) -> str:
    open_moves = [move for move in facts.open_moves if move != "stay"]  # staying is always possible
    blocked = [move for move in facts.blocked_moves if move != "stay"]
    if open_moves:
        text = f"From here I can move {_either(open_moves)} on my side."
    else:
        text = "From here every direction is walled off on my side."
    if blocked:
        text += f" Walls block {_both(blocked)}."
    if facts.suggestion:
        text += " " + suggest(Flag.of_action(facts.suggestion))
    return text


def _cell_text(cell: Cell) -> str:
    return f"column {cell[0] + 1}, row {cell[1] + 1}"


def _offset_text(start: Cell, target: Cell) -> str:
    """ "2 right and 3 up": the way from ``start`` to ``target`` (y grows downwards)."""
    dx, dy = target[0] - start[0], target[1] - start[1]
    parts = []
    if dx:
        parts.append(f"{abs(dx)} {'right' if dx > 0 else 'left'}")
    if dy:
        parts.append(f"{abs(dy)} {'down' if dy > 0 else 'up'}")
    return " and ".join(parts)


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _both(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# --- LLM answers ---------------------------------------------------------------------------------------------

INQUIRY_SYSTEM_PROMPT = """\
You speak for an AI player in the cooperative maze game Gnomes at Night and answer a question from the human \
partner. Both players move one shared token; each sees only the walls on their own side, and the treasure is \
drawn on one side only. Answer in at most two short, friendly sentences, using ONLY the facts given. Never \
invent or guess anything that is not in the facts. Above all, never state or guess a position of the treasure \
unless the facts give one. Columns and rows count from 1: column 1 is the left edge, row 1 is the top edge."""


def inquiry_messages(question: str, facts: InquiryFacts) -> list[dict[str, str]]:
    facts_text = "\n".join(f"- {line}" for line in _fact_lines(facts))
    return [
        {"role": "system", "content": INQUIRY_SYSTEM_PROMPT},
        {"role": "user", "content": f"Facts:\n{facts_text}\n\nPartner's question: {question}"},
    ]


def _fact_lines(facts: InquiryFacts) -> list[str]:
    open_moves = [move for move in facts.open_moves if move != "stay"]
    blocked = [move for move in facts.blocked_moves if move != "stay"]
    lines = [
        f"The token is at {_cell_text(facts.token)}.",
        f"Moves open on my side from the token: {', '.join(open_moves) or 'none'}.",
        f"Moves blocked by walls on my side: {', '.join(blocked) or 'none'}.",
    ]
    if facts.treasure is None:
        # No coordinates at all here: the model cannot leak what it was never told.
        lines.append(
            "I cannot see the treasure. It is not on my side, so it must be on the partner's side. "
            "Do not guess where it is."
        )
    else:
        offset = _offset_text(facts.token, facts.treasure) or "exactly where the token is"
        lines.append(f"The treasure is on my side at {_cell_text(facts.treasure)} ({offset} from the token).")
    if facts.suggestion == "stay":
        lines.append("I would like the partner to keep the token where it is next turn.")
    elif facts.suggestion:
        lines.append(f"I would like the partner to move the token {facts.suggestion} next.")
    else:
        lines.append("I have no particular move to suggest.")
    lines.append(f"This is turn {facts.turn} of at most {facts.turn_cap}.")
    return lines


INQUIRY_MAX_TOKENS = 120


def _llm_answer(question: str, facts: InquiryFacts, caller: ChatCaller) -> str:
    reply = caller.call(inquiry_messages(question, facts), purpose="inquiry", max_tokens=INQUIRY_MAX_TOKENS)
    text = " ".join(reply.text.split())
    if not text:
        caller.annotate_last(error="invalid reply: empty answer")
        raise ValueError("the model returned an empty answer")
    return _trim(text, MAX_ANSWER_CHARS)


def _trim(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a word boundary and marked with an ellipsis when shortened."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"
