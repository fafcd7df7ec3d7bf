"""Where everything lies on Hive's board picture and what it is called, with no Pillow (and no Django).

``geometry(data)`` places the picture: its size, each cell's centre and hexagon. render.py draws the PNG on it, and
``layout(data)`` returns the very same geometry so a clickable SVG overlay lines up exactly with the PNG; it also
names what the overlay and the page say: each piece and stack ("White beetle B1 on Black spider S1"), the hands
and the alt text (``describe``).

Only the observation data is read: the picture can never show more than the seat may see. Hexagons
are pointy-top in axial coordinates (q, r): E=(+1,0), W=(-1,0), NE=(+1,-1), NW=(0,-1), SE=(0,+1),
SW=(-1,+1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

SQRT3 = math.sqrt(3.0)
NEIGHBOURS = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))

# The view is at least this many hexagon widths wide and rows high, so early positions are not huge.
MIN_COLS = 7.0
MIN_ROWS = 5
MARGIN = 0.45  # around the drawn cells, in hexagon radii
MIN_RADIUS = 14.0

BUG_NAMES = {
    "Q": "queen",
    "S": "spider",
    "B": "beetle",
    "G": "grasshopper",
    "A": "ant",
    "M": "mosquito",
    "L": "ladybug",
    "P": "pillbug",
}
COLOUR_NAMES = {"w": "White", "b": "Black"}


# --- geometry ----------------------------------------------------------------------


def cell_name(q: int, r: int) -> str:
    """The location string of a cell, as Action.path uses it: "q,r"."""
    return f"{q},{r}"


def _cells(data: Mapping[str, Any]) -> tuple[dict[tuple[int, int], list[dict]], list[tuple[int, int]]]:
    """Stacks by cell (bottom piece first) and the empty cells next to the hive (sorted)."""
    stacks: dict[tuple[int, int], list[dict]] = {}
    for piece in data.get("pieces") or ():
        stacks.setdefault((int(piece["q"]), int(piece["r"])), []).append(piece)
    for stack in stacks.values():
        stack.sort(key=lambda p: int(p.get("height", 0)))
    if not stacks:
        return stacks, [(0, 0)]  # the first piece goes here
    ring = {(q + dq, r + dr) for q, r in stacks for dq, dr in NEIGHBOURS} - set(stacks)
    return stacks, sorted(ring, key=lambda c: (c[1], c[0]))


def point(data: Mapping[str, Any], key: str) -> tuple[int, int] | None:
    """The cell an observation's data names under ``key`` ("last_from", "last_to"), or None."""
    value = data.get(key)
    if value is None:
        return None
    return int(value[0]), int(value[1])


def geometry(data: Mapping[str, Any], size_hint: int) -> dict:
    """The picture's size and hexagon radius, each cell's centre, the stacks and the empty ring around them: what
    render_png draws on and what layout returns."""
    stacks, ring = _cells(data)
    cells = sorted(set(stacks) | set(ring), key=lambda c: (c[1], c[0]))
    extra = [c for c in (point(data, "last_from"), point(data, "last_to")) if c is not None and c not in cells]
    cells += extra
    # Unit coordinates (radius 1).
    ux = {c: SQRT3 * (c[0] + c[1] / 2.0) for c in cells}
    uy = {c: 1.5 * c[1] for c in cells}
    min_x, max_x = min(ux.values()) - SQRT3 / 2, max(ux.values()) + SQRT3 / 2
    min_y, max_y = min(uy.values()) - 1.0, max(uy.values()) + 1.0
    width_u = max(max_x - min_x + 2 * MARGIN, MIN_COLS * SQRT3)
    height_u = max(max_y - min_y + 2 * MARGIN, 1.5 * (MIN_ROWS - 1) + 2.0)
    radius = max(MIN_RADIUS, size_hint / max(width_u, height_u))
    width, height = round(width_u * radius), round(height_u * radius)
    ox = (width - (max_x - min_x) * radius) / 2 - min_x * radius
    oy = (height - (max_y - min_y) * radius) / 2 - min_y * radius
    centres = {c: (round(ox + ux[c] * radius, 1), round(oy + uy[c] * radius, 1)) for c in cells}
    return {
        "width": width,
        "height": height,
        "radius": round(radius, 2),
        "cells": cells,
        "centres": centres,
        "stacks": stacks,
        "ring": set(ring),
    }


def hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hexagon, clockwise from the upper right."""
    return [
        (round(cx + radius * math.cos(math.radians(60 * i - 30)), 1),
         round(cy + radius * math.sin(math.radians(60 * i - 30)), 1))
        for i in range(6)
    ]


def layout(data: Mapping[str, Any], *, size_hint: int = 900) -> dict:
    """The geometry of ``render_png(data, size_hint=size_hint)``, for an overlay in the image's pixel space.

    Returns {"width", "height", "radius", "coord_font", "description" (alt text),
    "cells": [{"name": "q,r", "q", "r", "x", "y", "points": "x,y x,y ..." (the hexagon), "coord_y" (where
    the coordinates are written), "occupied", "height" (pieces in the stack), "top" (the top piece's id or
    None), "pieces" (ids, bottom first), "label" (e.g. "White beetle B1 on Black spider S1", or "empty")},
    ...] in reading order (top row first),
    "hands": [{"color": "w", "seat": 0, "name": "White", "total" (pieces left), "pieces": [{"bug": "S",
    "count": 2, "name": "spider", "location": "hand:wS"}, ...]}, ...]}.
    """
    geo = geometry(data, size_hint)
    radius = geo["radius"]
    cells = []
    for c in geo["cells"]:
        x, y = geo["centres"][c]
        stack = geo["stacks"].get(c, [])
        cells.append({
            "name": cell_name(*c),
            "q": c[0],
            "r": c[1],
            "x": x,
            "y": y,
            "points": " ".join(f"{px:g},{py:g}" for px, py in hex_points(x, y, radius)),
            "coord_y": round(y - radius * 0.62, 1) if stack else y,
            "occupied": bool(stack),
            "height": len(stack),
            "top": stack[-1]["id"] if stack else None,
            "pieces": [p["id"] for p in stack],
            "label": _stack_label(stack),
        })
    return {
        "width": geo["width"],
        "height": geo["height"],
        "radius": radius,
        "coord_font": round(max(11.0, radius * 0.3), 1),  # a size for coordinates written over the picture
        "description": describe(data),
        "cells": cells,
        "hands": _hand_rows(data),
    }


def piece_name(piece: Mapping[str, Any]) -> str:
    """"White beetle B1" for wB1, "Black queen" for bQ."""
    bug, number = piece_label(piece)
    colour = COLOUR_NAMES.get(str(piece.get("color", "")), "")
    name = BUG_NAMES.get(bug, bug)
    return f"{colour} {name}{f' {bug}{number}' if number else ''}".strip()


def _stack_label(stack: list) -> str:
    if not stack:
        return "empty"
    label = piece_name(stack[-1])
    if len(stack) > 1:
        label += " on " + ", on ".join(piece_name(p) for p in reversed(stack[:-1]))
    return label


def _hand_rows(data: Mapping[str, Any]) -> list[dict]:
    hands = data.get("hands") or {}
    rows = []
    for seat, colour in enumerate("wb"):
        pieces = []
        for bug, count in hands.get(colour) or ():
            pieces.append({"bug": bug, "count": int(count), "name": BUG_NAMES.get(bug, bug),
                           "location": f"hand:{colour}{bug}"})
        rows.append({"color": colour, "seat": seat, "name": COLOUR_NAMES[colour], "pieces": pieces,
                     "total": sum(p["count"] for p in pieces)})
    return rows


def piece_label(piece: Mapping[str, Any]) -> tuple[str, str]:
    """("A", "1") for "wA1"; ("Q", "") for "wQ"."""
    ident = str(piece.get("id", ""))
    bug = str(piece.get("bug") or ident[1:2])
    return bug, ident[2:]


def describe(data: Mapping[str, Any]) -> str:
    """A one-line description of the picture for alt text: pieces, last move and whose turn."""
    pieces = data.get("pieces") or ()
    parts = [f"Hive board with {len(pieces)} piece{'s' if len(pieces) != 1 else ''}"]
    if data.get("last_move"):
        parts.append(f"last move {data['last_move']}")
    to_move = data.get("to_move")
    if data.get("result"):
        parts.append(str(data["result"]))
    elif to_move in (0, 1):
        parts.append(f"{'White' if to_move == 0 else 'Black'} to move")
    return ", ".join(parts) + "."


# --- the hook Hive's board presenter calls -----------------------------------------------------------


def observation_layout(observation) -> dict:
    """``layout`` of an engine Observation (or its ``data``): the picture's geometry, for the page's clickable
    overlay (Hive's board presenter, gameplay/boards/hive.py, which must match this PNG pixel for pixel)."""
    return layout(getattr(observation, "data", observation))
