"""What a benchmark client needs to know from one websocket frame: the version it shows, whether it is this
seat's turn, the legal action ids, whether the match is over, whether it carries an error, and the version of this
seat's newest move.

Read from the attributes the match page itself relies on (``data-version`` on the live regions, the "your-turn"
class, ``data-action-id`` on the action buttons, ``id="result"``, ``class="flash error"``, the move list's
``<li value="n" class="mine">``), so the client keeps working while the markup around them changes. A frame with
neither a version nor an error (e.g. only chat lines) tells nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import unescape

_VERSION = re.compile(r'\bdata-version="(\d+)"')
_ACTION_ID = re.compile(r'\bdata-action-id="([^"]*)"')
_HX_VALS = re.compile(r"\bhx-vals='([^']*)'")
_STATUS_TAG = re.compile(r'<[^>]*\bid="status"[^>]*>')
_RESULT = re.compile(r'\bid="result"')
_FLASH = re.compile(r'(<[^>]*\bid="flash"[^>]*>)(.*?)</', re.S)
_ERROR_CLASS = re.compile(r'\bclass="[^"]*\berror\b')
_MOVE_LIST = re.compile(r'<section\b[^>]*\bid="moves"[^>]*>(.*?)</section>', re.S)
_OWN_MOVE = re.compile(r'<li value="(\d+)" class="mine"')


@dataclass(frozen=True)
class SeatFrame:
    version: int | None  # None: the frame shows no board (chat lines only, or an error alone)
    my_turn: bool
    action_ids: tuple[str, ...]
    finished: bool
    error: str | None
    # The version after this seat's newest move in the frame's move list (0: none listed yet); None when the frame
    # has no move list (a realtime game). Where seats act at once (Pit), another seat's move can reach a socket
    # before its own: only this tells which version its own move became.
    own_move: int | None = None


def parse_seat_frame(html: str) -> SeatFrame:
    versions = [int(v) for v in _VERSION.findall(html)]
    version = max(versions) if versions else None
    status = _STATUS_TAG.search(html)
    action_ids = tuple(dict.fromkeys(unescape(a) for a in _ACTION_ID.findall(html)))
    if not action_ids:  # buttons without data-action-id: the ids are in their htmx values
        action_ids = tuple(dict.fromkeys(_hx_action_ids(html)))
    my_turn = bool(action_ids) or bool(status and "your-turn" in status.group(0))
    error = next((text for tag, text in _FLASH.findall(html) if _ERROR_CLASS.search(tag)), None)
    return SeatFrame(
        version=version,
        my_turn=my_turn and version is not None,
        action_ids=action_ids if version is not None else (),
        finished=bool(_RESULT.search(html)),
        error=unescape(error).strip() if error is not None else None,
        own_move=_own_move(html),
    )


def _own_move(html: str) -> int | None:
    moves = _MOVE_LIST.search(html)
    if moves is None:
        return None
    return max((int(n) for n in _OWN_MOVE.findall(moves.group(1))), default=0)


def _hx_action_ids(html: str):
    for raw in _HX_VALS.findall(html):
        try:
            values = json.loads(unescape(raw))
        except ValueError:
            continue
        if isinstance(values, dict) and values.get("kind") == "action" and isinstance(values.get("action_id"), str):
            yield values["action_id"]
