"""What an applied action carries to the match's sockets, so that they draw it without reading the database.

Why (issue 14): every socket of a match used to answer the group message by reading back what changed, the match
and its last action (3 queries per seat per move), although the service that applied the action had all of it in
hand. Now ``services.apply_action`` sends the committed result of the action with the group message: the match
fields the action set (the state included) and the action event as selectors.last_action_text reads it. A socket
whose view is exactly one commit behind (``follows``) applies those fields to the match it last drew and renders
its own seat's view from them; any other socket (it missed a message, or the change is not an action) reads the
database as before. The mover's socket draws its own move the same way from what the service returned.

The state travels between server processes only (the channel layer), like every other server-side read of the
match: each socket renders its own seat's observation of it, never sends it on.

On the wire the bulky parts, the state and the move list's rows, travel as one JSON text (``BULK``), written once by
the service and read by each socket on its worker thread. Why (issue 39, point 6): the in-memory channel layer of the
embedded default deep-copies a message for every socket it goes to, on the server's event loop, and channels_redis
packs it once per socket; as nested values that copy was the event loop's biggest single cost with 10 Pit tables,
and it grows with the match, whose state holds the action log (a Pit game runs to thousands of actions; measured,
three copies: 2 ms a move early in a game, 11 ms after 1,500 actions). A text is copied by reference and packed as
one block.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gameplay.models import Match

# The match fields an applied action may change: a socket holding the match as of the previous commit gets the
# committed match by setting these (datetimes travel as ISO text: channel layers carry JSON-like values only).
CHANGED_FIELDS = ("version", "state", "status", "winner", "scores", "draw_agreed")
CHANGED_TIMES = ("turn_started_at", "finished_at", "updated_at")
# The message's key for the JSON text of the bulky parts: {"state": the state field, "recent_actions": the rows}.
BULK = "bulk"


@dataclass(frozen=True)
class CommittedAction:
    match_id: int
    first_seq: int  # the first event the commit appended (the action)
    seq: int  # the newest (the match's end, when the action ended it)
    fields: dict[str, Any]  # CHANGED_FIELDS and CHANGED_TIMES as committed
    last_action: dict[str, Any]  # {"seat": ..., "payload": ...} of the action event
    # The move list's rows as of this commit (gameplay.capabilities.move_list.recent_actions), read once by the
    # service; None for a game without a move list (the socket then draws none).
    recent_actions: list[dict] | None = None

    @classmethod
    def of(cls, match: Match, first_seq: int, seq: int, seat: int, payload: dict,
           recent_actions: list[dict] | None = None) -> CommittedAction:
        fields = {name: getattr(match, name) for name in CHANGED_FIELDS}
        for name in CHANGED_TIMES:
            moment = getattr(match, name)
            fields[name] = moment.isoformat() if moment is not None else None
        return cls(match.pk, first_seq, seq, fields, {"seat": seat, "payload": payload}, recent_actions)

    @property
    def version(self) -> int:
        return self.fields["version"]

    def follows(self, seq: int) -> bool:
        """Whether this commit's events come right after event ``seq``: a view of everything up to ``seq``
        becomes a view of everything up to ``self.seq`` by this change alone."""
        return self.first_seq == seq + 1

    def apply_to(self, match: Match) -> None:
        """Set the committed fields on ``match`` (the same match as of an earlier commit)."""
        if match.pk != self.match_id:
            raise ValueError(f"a change of match {self.match_id} applied to match {match.pk}")
        for name in CHANGED_FIELDS:
            setattr(match, name, self.fields[name])
        for name in CHANGED_TIMES:
            text = self.fields[name]
            setattr(match, name, datetime.fromisoformat(text) if text is not None else None)

    def to_message(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "first_seq": self.first_seq,
            "seq": self.seq,
            "fields": {name: value for name, value in self.fields.items() if name != "state"},
            "last_action": self.last_action,
            BULK: json.dumps({"state": self.fields["state"], "recent_actions": self.recent_actions},
                             separators=(",", ":")),
        }

    @classmethod
    def from_message(cls, message: Any) -> CommittedAction | None:
        """The change a group message carries, or None when it carries none (or not in this shape: the
        socket then reads the database)."""
        if not isinstance(message, dict):
            return None
        body = message.get("committed")
        if not isinstance(body, dict):
            return None
        match_id, first_seq, seq = body.get("match_id"), body.get("first_seq"), body.get("seq")
        fields, last_action = body.get("fields"), body.get("last_action")
        if not all(type(n) is int for n in (match_id, first_seq, seq)) or not 0 < first_seq <= seq:
            return None
        try:
            bulk = json.loads(body.get(BULK))
        except (TypeError, ValueError):
            return None
        if not isinstance(fields, dict) or not isinstance(bulk, dict) or "state" not in bulk:
            return None
        fields = {**fields, "state": bulk["state"]}
        if not all(name in fields for name in (*CHANGED_FIELDS, *CHANGED_TIMES)):
            return None
        if not isinstance(last_action, dict) or not isinstance(last_action.get("payload"), dict):
            return None
        recent = bulk.get("recent_actions")
        if recent is not None and not (isinstance(recent, list) and all(
                isinstance(row, dict) and isinstance(row.get("payload"), dict) and type(row.get("version")) is int
                for row in recent)):
            return None
        return cls(match_id, first_seq, seq, fields, last_action, recent)
