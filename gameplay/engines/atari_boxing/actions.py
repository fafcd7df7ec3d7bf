"""The 18 joystick actions of the Atari 2600 in ALE's numbering, with stable ids and readable labels.

An action is a direction (or none) plus the fire button, which punches in Boxing. The ids are ALE's action names
in lower case, so a log reads the same as ALE's own documentation.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Joystick:
    id: str
    ale: int  # ALE's action number
    dx: int  # -1 left, +1 right
    dy: int  # -1 up, +1 down (screen rows grow downwards)
    fire: bool

    @property
    def label(self) -> str:
        vertical = {-1: "Up", 1: "Down"}.get(self.dy, "")
        horizontal = {-1: "left", 1: "right"}.get(self.dx, "")
        move = f"{vertical}-{horizontal}" if vertical and horizontal else (vertical or horizontal.capitalize())
        if move and self.fire:
            return f"{move} + punch"
        return move or ("Punch" if self.fire else "Stay")


def _joystick(ale: int, name: str) -> Joystick:
    dy = -1 if "UP" in name else 1 if "DOWN" in name else 0
    dx = 1 if "RIGHT" in name else -1 if "LEFT" in name else 0
    return Joystick(name.lower(), ale, dx, dy, "FIRE" in name)


ALE_NAMES = (
    "NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
    "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE",
)
JOYSTICK: tuple[Joystick, ...] = tuple(_joystick(number, name) for number, name in enumerate(ALE_NAMES))
BY_ID: dict[str, Joystick] = {j.id: j for j in JOYSTICK}
BY_PARTS: dict[tuple[int, int, bool], Joystick] = {(j.dx, j.dy, j.fire): j for j in JOYSTICK}
NOOP = "noop"


def compose(dx: int, dy: int, fire: bool) -> str:
    """The id of the action with this direction (each of -1, 0, +1) and fire button."""
    return BY_PARTS[(max(-1, min(1, dx)), max(-1, min(1, dy)), bool(fire))].id
