"""The one prompt of a dialogue turn (seed 004) and the parser of its reply.

Both the solver (which generates the turns of its game tree) and the live solver-guided agent use this module, so a
turn the solver generated and a turn played live read the same prompt: the game's rules summary as the system
message; the seat's observation text, its legal text actions (id and label) and the instruction (a tone, a day, an
argument style, or "any") as the user message. The model answers with JSON ``{"move": "<action id>", "message":
"<text>"}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

REPLY_FORMAT = '{"move": "<one action id from the list>", "message": "<your message to the other player>"}'
# The move a reply falls back to: every dialogue game keeps "talk" (a message without a structured move) legal.
FALLBACK_MOVE = "talk"
NEUTRAL_MESSAGE = "Let me think about this."


class ReplyError(ValueError):
    """A model reply that is not a usable turn; the text says what is wrong (it goes back to the model)."""


@dataclass(frozen=True)
class TurnParts:
    """What a turn's prompt is made of, for callers without a TurnView (the solver's tree builder)."""

    rules_summary: str
    observation_text: str
    text_actions: tuple[tuple[str, str], ...]  # (action id, label)


def turn_parts(view_or_parts) -> TurnParts:
    """TurnParts from a TurnView (agents), TurnParts, or a mapping with the three fields."""
    if isinstance(view_or_parts, TurnParts):
        return view_or_parts
    if isinstance(view_or_parts, Mapping):
        return TurnParts(
            str(view_or_parts.get("rules_summary", "")),
            str(view_or_parts["observation_text"]),
            tuple((str(a), str(b)) for a, b in view_or_parts["text_actions"]),
        )
    rules = getattr(view_or_parts, "rules", None)
    return TurnParts(
        rules.summary if rules is not None else "",
        view_or_parts.observation.text,
        tuple((action.id, action.label) for action in view_or_parts.text_actions),
    )


def build_turn_messages(view_or_parts, instruction_text: str) -> list[dict]:
    """The chat messages of one dialogue turn: rules as the system message, the seat's view and the instruction
    as the user message."""
    parts = turn_parts(view_or_parts)
    system = (
        "You are one of two players in a dialogue game. Each turn you make one move and write one message to the "
        "other player.\n\nRules:\n" + (parts.rules_summary.strip() or "(no rules summary)")
    )
    actions = "\n".join(f"- {action_id}: {label}" for action_id, label in parts.text_actions)
    user = (
        f"{parts.observation_text.strip()}\n\n"
        f"Your legal moves (id: meaning):\n{actions}\n\n"
        f"Instruction for your message: {instruction_text.strip()}\n\n"
        f"Reply with JSON only, exactly in this form: {REPLY_FORMAT}"
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def correction_messages(messages: Sequence[dict], reply: str, problem: str) -> list[dict]:
    """The turn's messages followed by the invalid reply and what was wrong with it, asking once more."""
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {
            "role": "user",
            "content": f"That reply could not be used: {problem}. Reply again with JSON only: {REPLY_FORMAT}",
        },
    ]


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def parse_turn_reply(text: str, legal_ids: Sequence[str]) -> tuple[str, str]:
    """(move, message) from a model's reply; raises ReplyError saying what is wrong. A reply wrapped in a code
    fence, or with prose around a single JSON object, is accepted."""
    raw = (text or "").strip()
    if not raw:
        raise ReplyError("the reply is empty")
    fenced = _FENCE.match(raw)
    if fenced:
        raw = fenced.group(1)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        start, end = raw.find("{"), raw.rfind("}")
        if start < 0 or end <= start:
            raise ReplyError("the reply is not JSON") from None
        try:
            data = json.loads(raw[start : end + 1])
        except json.JSONDecodeError:
            raise ReplyError("the reply is not valid JSON") from None
    if not isinstance(data, dict):
        raise ReplyError('the reply must be a JSON object with "move" and "message"')
    move, message = data.get("move"), data.get("message")
    if not isinstance(move, str) or not move.strip():
        raise ReplyError('the reply has no "move" (a string)')
    if not isinstance(message, str) or not message.strip():
        raise ReplyError('the reply has no "message" (a non-empty string)')
    move = move.strip()
    if move not in legal_ids:
        raise ReplyError(f"{move!r} is not a legal move; choose one of: {', '.join(legal_ids)}")
    return move, message.strip()
