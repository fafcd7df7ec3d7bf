"""Geometry for drawing one seat's side of the maze (an SVG in the page), from its observation only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .maze import parse_cell

# The move pad: action id, accessible label, keys that press it (see static/js/keys.js), grid area.
PAD = (
    ("up", "Move up", "ArrowUp w", "up"),
    ("left", "Move left", "ArrowLeft a", "left"),
    ("stay", "Stay where you are", ".", "stay"),
    ("right", "Move right", "ArrowRight d", "right"),
    ("down", "Move down", "ArrowDown s", "down"),
)
MARGIN = 0.15  # room around the maze so the outer walls are not clipped
# Room above and left of the maze for the column and row numbers: the agent and the tips say "column 7, row 3".
LABELS = 0.6


def board_layout(observation) -> dict[str, Any]:
    """Line segments of this side's walls, the grid lines, the token, the treasure if the seat sees it."""
    data: Mapping[str, Any] = observation.data
    size = int(data["size"])
    walls = []
    for name in data.get("walls") or ():
        cell, edge = name.split(":")
        x, y = parse_cell(cell)
        walls.append((x + 1, y, x + 1, y + 1) if edge == "right" else (x, y + 1, x + 1, y + 1))
    visited = {tuple(move["to"]) for move in data.get("history") or ()} | {tuple(data["start"])}
    token = data["token"]
    treasure = data.get("treasure")
    return {
        "size": size,
        "viewbox": f"{-LABELS} {-LABELS} {size + LABELS + MARGIN} {size + LABELS + MARGIN}",
        # (centre, number) of every column along the top and every row down the left, 1-based as in the labels.
        "coords": [(i + 0.5, i + 1) for i in range(size)],
        "coord_offset": -LABELS / 2,
        "pad": PAD,
        "walls": walls,
        "grid": list(range(1, size)),
        "visited": sorted((x + 0.5, y + 0.5) for x, y in visited if [x, y] != token),
        "token": (token[0] + 0.5, token[1] + 0.5),
        "treasure": (treasure[0] + 0.5, treasure[1] + 0.5) if treasure else None,
        # Human-facing coordinates are 1-based: column 1 is the left edge, row 1 the top.
        "token_label": f"column {token[0] + 1}, row {token[1] + 1}",
        "treasure_label": f"column {treasure[0] + 1}, row {treasure[1] + 1}" if treasure else "",
    }
