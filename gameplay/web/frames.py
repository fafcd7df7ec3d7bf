"""The websocket frame schema of gameplay.web.consumers.MatchConsumer, checked before any handler runs.

Every frame is checked by ``parse_frame``: at most MAX_FRAME_BYTES
characters, JSON nested at most MAX_FRAME_DEPTH levels (checked on the raw text before parsing), no NaN or
±Infinity, an object whose "kind" is one of KINDS, "version" a non-negative integer (or a string of
ASCII digits, as forms send it; never a float, a bool or anything else), "action_id" / "text" / "location"
strings of bounded length. Other keys (htmx adds "HEADERS") are ignored. A refused frame gets the error fragment,
the socket stays open and nothing changes; the text in "text" is then checked by the service it goes to
(gameplay.writes.text_input), "location" (kept by this socket and shown on its board) by the same module here.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.conf import settings

from gameplay.writes.text_input import TextRejected, clean_text

KINDS = ("action", "chat", "select", "clear", "uhp", "live")
# A frame is an object (1) whose HEADERS are an object (2); a little room above that, nothing like 5,000 levels.
MAX_FRAME_DEPTH = 4
MAX_ACTION_ID_LENGTH = 200
MAX_LOCATION_LENGTH = 32
MAX_MOVE_LENGTH = 200
MAX_LIVE_SEQ = 2**31  # a live input's counter (gameplay.live), echoed in the frames' 4-byte header
MAX_VERSION = 2**53  # far beyond any real match; keeps the number small enough to handle and never echoed
_DIGITS = re.compile(r"[0-9]{1,16}")
# JSON strings (an unterminated one runs to the end) and brackets: a linear scan, whatever the input.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


class FrameRejected(ValueError):
    """A frame that does not fit the schema; ``str(err)`` is the whole message for the error fragment."""


def parse_frame(text_data: Any) -> dict[str, Any]:
    """The frame as a dict with its known fields checked (``version`` turned into an int), or FrameRejected."""
    if not isinstance(text_data, str) or len(text_data) > settings.MAX_FRAME_BYTES:
        raise FrameRejected("Message too large or not text; nothing was changed.")
    if _too_deep(text_data, MAX_FRAME_DEPTH):
        raise FrameRejected("Malformed message (nested too deeply); nothing was changed.")
    try:
        frame = json.loads(text_data, parse_constant=_no_constant, parse_float=_finite_float)
    except _NonFinite:
        raise FrameRejected(
            "Malformed message (numbers must be finite: no NaN or Infinity); nothing was changed."
        ) from None
    except (ValueError, RecursionError):
        raise FrameRejected("Malformed message (not JSON); nothing was changed.") from None
    if not isinstance(frame, dict):
        raise FrameRejected("Malformed message; nothing was changed.")
    kind = frame.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise FrameRejected("Unknown message kind; nothing was changed.")
    if kind in ("action", "uhp"):
        frame["version"] = _version(frame.get("version"))
    if kind == "action":
        action_id = frame.get("action_id")
        if not isinstance(action_id, str) or not action_id or len(action_id) > MAX_ACTION_ID_LENGTH:
            raise FrameRejected("Missing or malformed action id; nothing was changed.")
        frame["text"] = _optional_string(frame.get("text"), "the text", settings.MAX_CHAT_LENGTH)
    elif kind == "live":
        action_id = frame.get("action_id")
        if not isinstance(action_id, str) or not action_id or len(action_id) > MAX_ACTION_ID_LENGTH:
            raise FrameRejected("Missing or malformed input; nothing was changed.")
        seq = frame.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < MAX_LIVE_SEQ:
            raise FrameRejected("Malformed input counter; nothing was changed.")
    elif kind == "uhp":
        frame["text"] = _optional_string(frame.get("text"), "the move", MAX_MOVE_LENGTH)
    elif kind == "chat":
        frame["text"] = _optional_string(frame.get("text"), "the message", settings.MAX_CHAT_LENGTH)
    elif kind == "select":
        try:
            frame["location"] = clean_text(
                frame.get("location"), max_length=MAX_LOCATION_LENGTH, strip=False, what="the location"
            )
        except TextRejected as err:
            raise FrameRejected(f"Malformed selection: {err}.") from None
    return frame


class _NonFinite(ValueError):
    pass


def _no_constant(name: str):
    raise _NonFinite(name)  # json.loads would otherwise turn NaN, Infinity and -Infinity into floats


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):  # 1e400
        raise _NonFinite(literal)
    return value


def _too_deep(text: str, limit: int) -> bool:
    """Whether the JSON text nests arrays/objects more than ``limit`` levels, read without parsing it."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        char = token.group()
        if char in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif char in ("]", "}"):
            depth -= 1
    return False


def _version(value: Any) -> int:
    """The frame's version: a non-negative int, or a string of ASCII digits (form fields are strings)."""
    if type(value) is int and 0 <= value <= MAX_VERSION:  # not bool, not float
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value) and int(value) <= MAX_VERSION:
        return int(value)
    raise FrameRejected("Missing or malformed version; nothing was changed.")


def _optional_string(value: Any, name: str, max_length: int) -> str | None:
    """A text field: absent (None) or a string of at most ``max_length`` characters. What the text holds is
    checked by the service it goes to (gameplay.writes.text_input)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise FrameRejected(f"Malformed message: {name} must be text; nothing was changed.")
    if len(value) > max_length:
        raise FrameRejected(f"Malformed message: {name} is longer than {max_length} characters; nothing was changed.")
    return value
