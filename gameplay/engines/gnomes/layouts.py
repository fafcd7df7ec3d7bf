"""The testbed's two wall layouts and five treasures, loaded from ``fixtures/gnomes/mazes.json``.

The fixture keeps the source's own 1-indexed ``{from, to}`` wall format unchanged (it is a data copy), so this
module converts it into the wall names of ``maze.py`` ("x,y:right" / "x,y:down", 0-indexed). Walls the source had
commented out are listed separately in the fixture and are deliberately ignored: they are not active.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .maze import Cell, Maze

FIXTURE_PATH = Path(__file__).resolve().parents[3] / "fixtures" / "gnomes" / "mazes.json"
ROUND_NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class RoundSpec:
    """One round of the five-round sequence: where the treasure is and which side shows it."""

    number: int
    treasure: Cell
    seen_by: int  # the side (and so the seat) that sees the treasure: (number - 1) % 2


@dataclass(frozen=True)
class Layouts:
    """Everything the engine needs from the fixture, in our conventions."""

    size: int
    start: Cell
    walls: tuple[frozenset[str], frozenset[str]]  # indexed by side
    rounds: tuple[RoundSpec, ...]  # rounds[0] is round 1

    def maze(self, side: int) -> Maze:
        return Maze(self.size, self.walls[side])

    def round(self, number: int) -> RoundSpec:
        if number not in ROUND_NUMBERS:
            raise ValueError(f"round must be one of {ROUND_NUMBERS}, got {number!r}")
        return self.rounds[number - 1]


def wall_name(source_wall: Mapping[str, Mapping[str, int]]) -> str:
    """Convert one source wall ``{"from": {"x", "y"}, "to": {"x", "y"}}`` (1-indexed cells) to a wall name.

    The two cells must be neighbours with ``to`` right of or below ``from``; anything else means the data is
    not what we think it is, so it is refused rather than guessed at.
    """
    fx, fy = source_wall["from"]["x"], source_wall["from"]["y"]
    tx, ty = source_wall["to"]["x"], source_wall["to"]["y"]
    x, y = fx - 1, fy - 1
    if (tx, ty) == (fx + 1, fy):
        return f"{x},{y}:right"
    if (tx, ty) == (fx, fy + 1):
        return f"{x},{y}:down"
    raise ValueError(f"wall {dict(source_wall)} does not join a cell to its right or lower neighbour")


def _side_walls(side: Mapping[str, Any], size: int) -> frozenset[str]:
    names = [wall_name(w) for w in side["walls"]]
    interior = set(Maze(size, ()).interior_walls())
    outside = [n for n in names if n not in interior]
    if outside:
        raise ValueError(f"side {side['side']} has walls outside the grid: {outside}")
    if len(set(names)) != len(names) or len(names) != side["n_walls"]:
        raise ValueError(f"side {side['side']} wall list disagrees with its n_walls={side['n_walls']}")
    return frozenset(names)


def _round(entry: Mapping[str, Any], size: int) -> RoundSpec:
    number = int(entry["round"])
    x, y = entry["treasure_pos_xy_0indexed"]
    seen_by = int(entry["treasure_visible_to_side"])
    if seen_by != (number - 1) % 2:
        raise ValueError(f"round {number}: treasure side {seen_by} breaks the (round - 1) % 2 convention")
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"round {number}: treasure ({x}, {y}) is off the grid")
    return RoundSpec(number, (int(x), int(y)), seen_by)


def parse_layouts(data: Mapping[str, Any]) -> Layouts:
    """Build ``Layouts`` from the fixture's parsed JSON, checking it on the way."""
    size = int(data["grid"]["width"])
    if int(data["grid"]["height"]) != size:
        raise ValueError("the maze must be square")
    sides = sorted(data["sides"], key=lambda s: s["side"])
    if [s["side"] for s in sides] != [0, 1]:
        raise ValueError("expected exactly sides 0 and 1")
    rounds = tuple(sorted((_round(r, size) for r in data["rounds"]), key=lambda r: r.number))
    if tuple(r.number for r in rounds) != ROUND_NUMBERS:
        raise ValueError(f"expected rounds {ROUND_NUMBERS}")
    sx, sy = data["start_token_pos_in_constructor"]
    return Layouts(
        size=size,
        start=(int(sx), int(sy)),
        walls=(_side_walls(sides[0], size), _side_walls(sides[1], size)),
        rounds=rounds,
    )


def load_layouts(path: Path = FIXTURE_PATH) -> Layouts:
    with open(path, encoding="utf-8") as f:
        return parse_layouts(json.load(f))


@cache
def default_layouts() -> Layouts:
    """The shipped fixture, read once per process (every game and state shares it; it is immutable)."""
    return load_layouts()
