"""Intent flags: the compact vocabulary between the language module and the planner (seeds/003 §4)."""

from __future__ import annotations

from enum import StrEnum


class Flag(StrEnum):
    STAY = "STAY"
    RIGHT = "RIGHT"
    UP = "UP"
    LEFT = "LEFT"
    DOWN = "DOWN"
    ACCEPT = "ACCEPT"
    REJECT = "REJECT"
    INQUIRY = "INQUIRY"
    NONE = "NONE"

    @property
    def action(self) -> str | None:
        """The engine action id a movement flag stands for (None for the response flags)."""
        return _ACTION_OF.get(self)

    @classmethod
    def of_action(cls, action_id: str) -> Flag:
        return _FLAG_OF[action_id]


_ACTION_OF = {Flag.STAY: "stay", Flag.RIGHT: "right", Flag.UP: "up", Flag.LEFT: "left", Flag.DOWN: "down"}
_FLAG_OF = {action: flag for flag, action in _ACTION_OF.items()}
MOVE_FLAGS = tuple(_ACTION_OF)
