"""Strict reading of a model's reply: exactly one JSON object naming a legal action or a rules topic.

Anything else is an InvalidReply whose message tells the model exactly what was wrong, so the correction it
receives is specific. The agent cannot see the engine, so text for open-ended actions is checked against what the
TurnView says (non-empty, max length) plus an optional ``text_validator`` the caller supplies.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from agents_app.agents.base import TurnView

from .prompts import MAX_MESSAGE_CHARS

# (action_id, text) -> an error message, or None when the text is acceptable.
TextValidator = Callable[[str, str], str | None]

# Openings of a plain-text refusal; only consulted when the reply is not JSON, to give a clearer correction.
_REFUSAL_OPENINGS = (
    "i can't",
    "i cannot",
    "i can not",
    "i won't",
    "i will not",
    "i'm sorry",
    "i am sorry",
    "sorry",
    "i'm unable",
    "i am unable",
    "i'm not able",
    "as an ai",
    "as a language model",
)
_FENCE = re.compile(r"```(?:json)?[ \t]*\n?(.*?)\n?[ \t]*```", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class MoveReply:
    action_id: str
    text: str | None = None
    message: str | None = None  # a chat line to send with the move (only when the view's chat is open)


@dataclass(frozen=True)
class ExplainReply:
    topic: str


class InvalidReply(ValueError):
    """The reply is not a usable move; ``kind`` classifies it for the transcript, str() is for the model."""

    def __init__(self, kind: str, problem: str):
        super().__init__(problem)
        self.kind = kind
        self.problem = problem


def parse_reply(
    content: str | None,
    view: TurnView,
    *,
    refusal: str | None = None,
    text_validator: TextValidator | None = None,
    lenient: bool = False,
) -> MoveReply | ExplainReply:
    """``lenient``: for free-text replies (no JSON mode, no schema), a reply that is not one JSON object is still
    read when it holds one JSON object with an "action", or names exactly one legal id and nothing else that is."""
    if refusal and refusal.strip():
        raise InvalidReply("refusal", f"you declined to answer ({_short(refusal)}); this is a game, choose a move")
    try:
        obj = json_object_in(content or "")
    except InvalidReply as err:
        if not lenient or err.kind != "malformed":
            raise
        obj = _read_freely(content or "", view, err)
    if "action" in obj and "explain" in obj:
        raise InvalidReply("malformed", 'give either "action" or "explain", not both')
    if "explain" in obj:
        topic = obj["explain"]
        if not isinstance(topic, str) or not topic.strip():
            raise InvalidReply("malformed", '"explain" must name a rules topic as a string')
        return ExplainReply(topic.strip())
    if "action" not in obj:
        raise InvalidReply("malformed", 'the JSON object has no "action" key')
    return _move(obj, view, text_validator)


_OBJECT = re.compile(r"\{[^{}]*\}")


_ACTION_VALUE = re.compile(r'"action"\s*:\s*"')


def _read_freely(content: str, view: TurnView, err: InvalidReply) -> dict:
    """A move in a free-text reply: an embedded JSON object with an "action", else the legal id its "action" value
    starts with (llama-cpp-python's schema grammar writes an id ending in a backslash unescaped, so the reply's
    string never closes, as in a Hive move to the north-west of a piece), else the one legal id it names."""
    for found in _OBJECT.finditer(content):
        try:
            obj = json.loads(found.group(0))
        except ValueError:
            continue
        if isinstance(obj, dict) and ("action" in obj or "explain" in obj):
            return obj
    ids = [a.id for a in view.legal_actions]
    value = _ACTION_VALUE.search(content)
    if value is not None:
        rest = content[value.end():]
        starts = [i for i in ids if rest.startswith(i) or rest.startswith(json.dumps(i)[1:-1])]
        if starts:
            return {"action": max(starts, key=len)}
    named = [i for i in ids if re.search(rf"(?<![\w:-]){re.escape(i)}(?![\w:-])", content)]
    if len(named) == 1:
        return {"action": named[0]}
    raise err


def json_object_in(content: str) -> dict:
    """The single JSON object of a reply: optional whitespace and one ```json fence around it, nothing else."""
    text = content.strip()
    if not text:
        raise InvalidReply("empty", "the reply was empty")
    fenced = _FENCE.fullmatch(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        obj = json.loads(text)
    except ValueError as err:
        if text.casefold().startswith(_REFUSAL_OPENINGS):
            raise InvalidReply(
                "refusal", f"you declined to answer ({_short(text)}); this is a game, choose a move"
            ) from None
        problem = f"the reply is not a single JSON object ({err.msg} at char {err.pos})"
        raise InvalidReply("malformed", problem) from None
    if not isinstance(obj, dict):
        raise InvalidReply("malformed", f"the reply is JSON but a {type(obj).__name__}, not an object")
    return obj


def _move(obj: dict, view: TurnView, text_validator: TextValidator | None) -> MoveReply:
    action_id = obj["action"]
    if not isinstance(action_id, str):
        raise InvalidReply("malformed", '"action" must be an action id given as a string')
    message = chat_message(obj, view)
    if action_id in {a.id for a in view.legal_actions}:
        return MoveReply(action_id, message=message)  # text is only for open-ended actions; ignore any given
    spec = next((t for t in view.text_actions if t.id == action_id), None)
    if spec is None:
        raise InvalidReply("unknown-id", f"{_short(action_id)!r} is not one of the available action ids")
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InvalidReply("missing-text", f'{action_id!r} is an open-ended action and needs a non-empty "text"')
    text = text.strip()
    if len(text) > spec.max_length:
        raise InvalidReply(
            "rejected-text", f"the text for {action_id!r} has {len(text)} characters; at most {spec.max_length}"
        )
    if text_validator is not None:
        error = text_validator(action_id, text)
        if error:
            raise InvalidReply("rejected-text", f"the text for {action_id!r} was rejected: {error}")
    return MoveReply(action_id, text, message)


def parse_answer(content: str | None, view: TurnView, *, refusal: str | None = None) -> str | None:
    """A between-moves chat answer: one JSON object with a "message" (blank: nothing to say)."""
    if refusal and refusal.strip():
        raise InvalidReply("refusal", f"you declined to answer ({_short(refusal)}); answer your partner in the chat")
    obj = json_object_in(content or "")
    if "message" not in obj:
        raise InvalidReply("malformed", 'the JSON object has no "message" key')
    return chat_message(obj, view)


def chat_message(obj: dict, view: TurnView) -> str | None:
    """The reply's chat line: only where the chat is open, a string, blank = none, cut to the limit at a word
    boundary (a long line is worth sending shortened, not worth a correction round)."""
    message = obj.get("message")
    if not view.chat or message is None:
        return None
    if not isinstance(message, str):
        raise InvalidReply("malformed", '"message" must be a string (or left out)')
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE_CHARS:
        cut = message[: MAX_MESSAGE_CHARS - 1]
        message = (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"
    return message or None


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
