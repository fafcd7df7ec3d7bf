"""One websocket consumer per match connection. Thin: authenticate the seat, call a service, render.

Frames are JSON objects (the htmx websocket extension sends form values plus a
HEADERS entry):
  {"kind": "action", "action_id": "...", "version": 12, "text": "..."}  apply an action
  {"kind": "chat", "text": "..."}                                        post a chat line (refused with an error,
                                                                         changing nothing, when the match has no
                                                                         chat: Game.chat_enabled())
  {"kind": "select", "location": "c3"}                                   board click (this socket only)
  {"kind": "clear"}                                                      clear the board selection
  {"kind": "uhp", "text": "wS1 bQ-", "version": 12}                      a move typed in the game's notation
                                                                         (games whose spec declares typed_moves)
A select frame may carry "restart": true to start a new selection at that location instead of extending it.

Every frame is checked against this schema (``parse_frame``) before any handler runs: at most MAX_FRAME_BYTES
characters, JSON nested at most MAX_FRAME_DEPTH levels (checked on the raw text before parsing), no NaN or
±Infinity, an object whose "kind" is one of the strings above, "version" a non-negative integer (or a string of
ASCII digits, as forms send it; never a float, a bool or anything else), "action_id" / "text" / "location"
strings of bounded length. Other keys (htmx adds "HEADERS") are ignored. A refused frame gets the error fragment,
the socket stays open and nothing changes; the text in "text" is then checked by the service it goes to
(gameplay.text_input), "location" (kept by this socket and shown on its board) by the same module here.
"""

from __future__ import annotations

import json
import logging
import math
import re
from typing import Any

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings

from gameplay import selectors, services
from gameplay.rendering import error_fragment, seat_fragments
from gameplay.text_input import TextRejected, clean_text

logger = logging.getLogger(__name__)

KINDS = ("action", "chat", "select", "clear", "uhp")
# A frame is an object (1) whose HEADERS are an object (2); a little room above that, nothing like 5,000 levels.
MAX_FRAME_DEPTH = 4
MAX_ACTION_ID_LENGTH = 200
MAX_LOCATION_LENGTH = 32
MAX_MOVE_LENGTH = 200
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
    checked by the service it goes to (gameplay.text_input)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise FrameRejected(f"Malformed message: {name} must be text; nothing was changed.")
    if len(value) > max_length:
        raise FrameRejected(f"Malformed message: {name} is longer than {max_length} characters; nothing was changed.")
    return value


class MatchConsumer(WebsocketConsumer):
    seat = None
    group = None

    def connect(self):
        self.seat = selectors.seat_by_token(self.scope["url_route"]["kwargs"].get("token", ""))
        if self.seat is None:
            self.close()  # before accept: the handshake is refused
            return
        self.group = selectors.match_group_name(self.seat.match_id)
        self.selection: tuple[str, ...] = ()
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        services.mark_joined(self.seat)
        self.send_view()

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        try:
            frame = parse_frame(text_data)
        except FrameRejected as err:
            return self.send_error(str(err))
        handler = {
            "action": self.on_action,
            "chat": self.on_chat,
            "select": self.on_select,
            "clear": self.on_clear,
            "uhp": self.on_uhp,
        }[frame["kind"]]
        try:
            handler(frame)
        except Exception:  # keep the socket: the transaction rolled back, so nothing changed
            logger.exception("error handling %s frame for match %s", frame.get("kind"), self.seat.match_id)
            self.send_error("Something went wrong on the server; nothing was changed. Please try again.")

    # --- frame handlers ---------------------------------------------------------

    def on_action(self, frame):
        self._submit(
            frame,
            lambda version: services.submit_action(
                self.seat.match_id,
                self.seat.index,
                frame["action_id"],
                text=frame["text"] or None,
                expected_version=version,
            ),
        )

    def on_uhp(self, frame):
        """A move typed in the game's notation (e.g. UHP for Hive); the engine maps it to an action id."""
        self._submit(
            frame,
            lambda version: services.submit_move_text(
                self.seat.match_id, self.seat.index, frame["text"] or "", expected_version=version
            ),
        )

    def _submit(self, frame, submit):
        try:
            submit(frame["version"])  # a checked int (parse_frame)
        except services.ServiceError as err:
            self.selection = ()
            self.send_view(error=f"{err}. Nothing was changed.")

    def on_chat(self, frame):
        # The service refuses chat in a match without it ("chat is off in this match") before touching anything.
        try:
            services.post_message(self.seat.match_id, self.seat.index, frame["text"])
        except services.ServiceError as err:
            self.send_error(f"{err}. Nothing was sent.")

    def on_select(self, frame):
        location = frame["location"]  # clean single-line text of at most MAX_LOCATION_LENGTH (parse_frame)
        if not location:
            return self.send_error("Malformed selection.")
        # Clicking the last selected location again steps back; "restart" begins a new selection there.
        if self.selection and self.selection[-1] == location:
            self.selection = self.selection[:-1]
        elif frame.get("restart") in (True, "true", "1"):
            self.selection = (location,)
        else:
            self.selection = self.selection + (location,)
        self.send_view()

    def on_clear(self, frame):
        self.selection = ()
        self.send_view()

    # --- group events -----------------------------------------------------------

    def match_changed(self, event):
        self.selection = ()
        self.send_view()

    # --- rendering --------------------------------------------------------------

    def send_view(self, error: str | None = None):
        match = selectors.match_by_id(self.seat.match_id)
        html = seat_fragments(selectors.seat_view(match, self.seat), self.selection)
        if error:
            html += error_fragment(error)
        self.send(text_data=html)

    def send_error(self, message: str):
        self.send(text_data=error_fragment(message))
