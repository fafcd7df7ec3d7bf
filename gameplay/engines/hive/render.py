"""Hive board pictures drawn from an observation's data, with Pillow alone (no Django).

``render_png(data)`` draws the hive: every occupied cell as a piece (a light hexagon with dark text
for White, dark with light text for Black, a ring in the bug's colour and its letter and number,
e.g. "A1"), stacks with the pieces underneath peeking out, a "×2" badge and an "on bQ" note, the
empty cells around the hive as faint outlines, the last move's source (dashed) and destination
(solid) outlined, and optionally each cell's axial coordinates. ``layout(data)`` returns the very
same geometry (image size, each cell's centre and hexagon) so a clickable SVG overlay lines up
exactly with the PNG; both go through ``_geometry``.

Only the observation data is read: the picture can never show more than the seat may see. Hexagons
are pointy-top in axial coordinates (q, r): E=(+1,0), W=(-1,0), NE=(+1,-1), NW=(0,-1), SE=(0,+1),
SW=(-1,+1). Output is deterministic: the same data gives the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

SQRT3 = math.sqrt(3.0)
NEIGHBOURS = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))

# The view is at least this many hexagon widths wide and rows high, so early positions are not huge.
MIN_COLS = 7.0
MIN_ROWS = 5
MARGIN = 0.45  # around the drawn cells, in hexagon radii
MIN_RADIUS = 14.0
SUPERSAMPLE = 2  # draw at this scale, then reduce: smooth edges at a few milliseconds' cost

BACKGROUND = (236, 231, 218)
EMPTY_FILL = (229, 223, 207)
EMPTY_EDGE = (203, 195, 174)
COORD_INK = (128, 120, 102)
WHITE_BODY, WHITE_EDGE, WHITE_INK = (250, 247, 238), (120, 112, 98), (29, 35, 42)
BLACK_BODY, BLACK_EDGE, BLACK_INK = (38, 38, 44), (8, 8, 10), (246, 243, 234)
LAST_TO = (214, 51, 132)  # magenta: where the last move went
LAST_FROM = (214, 51, 132)  # the same colour, dashed: where it came from
SURROUNDED = (200, 30, 30)
BADGE_FILL, BADGE_INK = (31, 95, 191), (255, 255, 255)

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
# Ring colours after the physical game's bug colours.
BUG_COLOURS = {
    "Q": (226, 168, 0),
    "S": (156, 90, 46),
    "B": (124, 79, 168),
    "G": (63, 154, 58),
    "A": (46, 111, 208),
    "M": (138, 143, 150),
    "L": (210, 58, 58),
    "P": (42, 157, 143),
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


def _point(data: Mapping[str, Any], key: str) -> tuple[int, int] | None:
    value = data.get(key)
    if value is None:
        return None
    return int(value[0]), int(value[1])


def _geometry(data: Mapping[str, Any], size_hint: int) -> dict:
    stacks, ring = _cells(data)
    cells = sorted(set(stacks) | set(ring), key=lambda c: (c[1], c[0]))
    extra = [c for c in (_point(data, "last_from"), _point(data, "last_to")) if c is not None and c not in cells]
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
    geo = _geometry(data, size_hint)
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
    bug, number = _piece_label(piece)
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


# --- drawing -------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)


def _piece_label(piece: Mapping[str, Any]) -> tuple[str, str]:
    """("A", "1") for "wA1"; ("Q", "") for "wQ"."""
    ident = str(piece.get("id", ""))
    bug = str(piece.get("bug") or ident[1:2])
    return bug, ident[2:]



def _dashed_polygon(draw: ImageDraw.ImageDraw, points, fill, width: int, dashes: int = 3) -> None:
    closed = list(points) + [points[0]]
    for (x0, y0), (x1, y1) in zip(closed, closed[1:], strict=False):
        for k in range(dashes):
            a, b = (2 * k + 0.5) / (2 * dashes), (2 * k + 1.5) / (2 * dashes)
            draw.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                      fill=fill, width=width)


def _text_centred(draw, xy, text, font, fill) -> None:
    draw.text(xy, text, font=font, fill=fill, anchor="mm")


def _draw_piece(draw, cx: float, cy: float, r: float, piece: Mapping[str, Any], s: float) -> None:
    """One piece's tile at centre (cx, cy) (already scaled), tile radius r (scaled)."""
    white = piece.get("color", str(piece.get("id", "w"))[:1]) == "w"
    body, edge, ink = (WHITE_BODY, WHITE_EDGE, WHITE_INK) if white else (BLACK_BODY, BLACK_EDGE, BLACK_INK)
    draw.polygon(hex_points(cx, cy, r), fill=body, outline=edge, width=max(1, round(1.5 * s)))
    bug, number = _piece_label(piece)
    ring = BUG_COLOURS.get(bug, (128, 128, 128))
    draw.polygon(hex_points(cx, cy, r * 0.78), outline=ring, width=max(2, round(r * 0.11)))
    letter_font = _font(max(8, round(r * 0.72)))
    if number:
        number_font = _font(max(6, round(r * 0.40)))
        lw = draw.textlength(bug, font=letter_font)
        nw = draw.textlength(number, font=number_font)
        left = cx - (lw + nw) / 2
        _text_centred(draw, (left + lw / 2, cy), bug, letter_font, ink)
        draw.text((left + lw, cy + r * 0.30), number, font=number_font, fill=ink, anchor="ls")
    else:
        _text_centred(draw, (cx, cy), bug, letter_font, ink)


def _surrounded(piece: Mapping[str, Any], cell: tuple[int, int], stacks) -> bool:
    return piece.get("bug") == "Q" and all((cell[0] + dq, cell[1] + dr) in stacks for dq, dr in NEIGHBOURS)


def _draw_stack_marks(draw, cx: float, cy: float, radius: float, stack: list, s: float) -> None:
    """A badge with the stack height at the upper right; a pill naming the pieces underneath at the bottom."""
    badge_r = radius * 0.25
    bx, by = cx + radius * 0.60, cy - radius * 0.52
    draw.ellipse((bx - badge_r, by - badge_r, bx + badge_r, by + badge_r), fill=BADGE_FILL,
                 outline=(255, 255, 255), width=max(1, round(1.5 * s)))
    _text_centred(draw, (bx, by), str(len(stack)), _font(max(6, round(radius * 0.30))), BADGE_INK)
    below = stack[-2]
    white = below.get("color") == "w"
    text = "on " + ",".join(str(p.get("id", "?")) for p in reversed(stack[:-1]))
    font = _font(max(6, round(radius * 0.24)))
    w = draw.textlength(text, font=font)
    h = radius * 0.34
    px, py = cx, cy + radius * 0.60
    draw.rounded_rectangle((px - w / 2 - h * 0.35, py - h / 2, px + w / 2 + h * 0.35, py + h / 2), radius=h / 2,
                           fill=WHITE_BODY if white else BLACK_BODY, outline=WHITE_EDGE if white else BLACK_INK,
                           width=max(1, round(s)))
    _text_centred(draw, (px, py), text, font, WHITE_INK if white else BLACK_INK)


def render_png(data: Mapping[str, Any], *, coords: bool = False, size_hint: int = 900) -> bytes:
    """The board of an observation's data as PNG bytes (see the module docstring)."""
    return _encode(render_image(data, coords=coords, size_hint=size_hint))


def render_image(data: Mapping[str, Any], *, coords: bool = False, size_hint: int = 900) -> Image.Image:
    geo = _geometry(data, size_hint)
    s = SUPERSAMPLE
    radius = geo["radius"] * s
    img = Image.new("RGB", (geo["width"] * s, geo["height"] * s), BACKGROUND)
    draw = ImageDraw.Draw(img)
    centres = {c: (x * s, y * s) for c, (x, y) in geo["centres"].items()}
    stacks = geo["stacks"]
    last_from, last_to = _point(data, "last_from"), _point(data, "last_to")
    tile = radius * 0.94
    small_font = _font(max(6, round(radius * 0.24)), bold=False)

    for c in geo["cells"]:
        if c in stacks:
            continue
        cx, cy = centres[c]
        draw.polygon(hex_points(cx, cy, tile), fill=EMPTY_FILL, outline=EMPTY_EDGE, width=max(1, round(s)))

    for c in geo["cells"]:
        stack = stacks.get(c)
        if not stack:
            continue
        cx, cy = centres[c]
        n = len(stack)
        step = radius * 0.09
        # Pieces underneath peek out below the top one, one step per level.
        for depth, piece in enumerate(stack[:-1]):
            _draw_piece(draw, cx, cy + (n - 1 - depth) * step, tile, piece, s)
        _draw_piece(draw, cx, cy, tile, stack[-1], s)
        if any(_surrounded(p, c, stacks) for p in stack):
            draw.polygon(hex_points(cx, cy, radius * 0.99), outline=SURROUNDED, width=max(3, round(radius * 0.12)))

    width = max(2, round(radius * 0.10))
    if last_from is not None and last_from in centres:
        _dashed_polygon(draw, hex_points(*centres[last_from], radius * 0.97), LAST_FROM, width)
    if last_to is not None and last_to in centres:
        draw.polygon(hex_points(*centres[last_to], radius * 0.97), outline=LAST_TO, width=width)
    for c, stack in stacks.items():
        if len(stack) > 1:
            _draw_stack_marks(draw, *centres[c], radius, stack, s)

    if coords:
        for c in geo["cells"]:
            cx, cy = centres[c]
            if c in stacks:
                white = stacks[c][-1].get("color") == "w"
                ink, halo = (WHITE_INK, WHITE_BODY) if white else (BLACK_INK, BLACK_BODY)
                y = cy - radius * 0.62
            else:
                ink, halo, y = COORD_INK, EMPTY_FILL, cy
            draw.text((cx, y), cell_name(*c), font=small_font, fill=ink, anchor="mm",
                      stroke_width=max(1, round(s * 1.5)), stroke_fill=halo)

    if s != 1:
        img = img.reduce(s)
    return img


def _encode(img: Image.Image) -> bytes:
    # A 256-colour palette (fast octree, no dithering) halves both the encoding time and the file size,
    # with no visible change to these flat-coloured pictures.
    palette = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    palette.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


# --- the hooks HiveGame calls ----------------------------------------------------------------


def observation_png(observation, *, coords: bool = False) -> bytes:
    """PNG bytes of an engine Observation (or its ``data`` mapping): for Game.observation_image."""
    return render_png(getattr(observation, "data", observation), coords=coords)


def observation_layout(observation) -> dict:
    """``layout`` of an engine Observation (or its ``data``): the picture's geometry, for the page's clickable
    overlay (Hive's board presenter, gameplay/boards/hive.py, which must match this PNG pixel for pixel)."""
    return layout(getattr(observation, "data", observation))


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


# --- sample positions (for the benchmark, tests and looking at pictures) -----------------------

_FULL_HAND = [["Q", 1], ["S", 2], ["B", 2], ["G", 3], ["A", 3]]


def _piece(ident: str, q: int, r: int, height: int = 0, top: bool = True) -> dict:
    return {"id": ident, "color": ident[0], "bug": ident[1], "q": q, "r": r, "height": height, "top": top}


def _hands(placed: list[str]) -> dict:
    hands = {}
    for colour in "wb":
        hands[colour] = []
        for bug, count in _FULL_HAND:
            used = sum(1 for p in placed if p[0] == colour and p[1] == bug)
            hands[colour].append([bug, count - used])
    return hands


def sample_observation(kind: str) -> dict:
    """A hand-made observation in the engine's format: "start" (2 pieces), "middle" (12, a beetle
    on a spider) or "end" (22, Black's queen surrounded)."""
    if kind == "start":
        pieces = [_piece("wS1", 0, 0), _piece("bS1", 1, 0)]
        extra = {"to_move": 0, "turn": 3, "last_move": "bS1 wS1-", "last_from": None, "last_to": [1, 0]}
    elif kind == "middle":
        pieces = [
            _piece("wS1", 0, 0), _piece("bS1", 1, 0, 0, False), _piece("wB1", 1, 0, 1), _piece("wQ", -1, 1),
            _piece("bQ", 2, -1), _piece("wA1", -1, 0), _piece("bA1", 2, 0), _piece("bG1", 3, -1),
            _piece("wG1", -2, 1), _piece("bB1", 1, 1), _piece("wA2", 0, -1), _piece("bA2", 3, -2),
        ]
        extra = {"to_move": 1, "turn": 13, "last_move": "wB1 bS1", "last_from": [0, 1], "last_to": [1, 0]}
    elif kind == "end":
        pieces = [
            _piece("bQ", 1, 0), _piece("wS1", 0, 0), _piece("wA1", 2, 0), _piece("bS1", 2, -1),
            _piece("bB1", 1, -1, 0, False), _piece("wB1", 1, -1, 1), _piece("wG1", 1, 1), _piece("bA1", 0, 1),
            _piece("wQ", -1, 0), _piece("bG1", -1, 1), _piece("wS2", -2, 0), _piece("bS2", 3, -1),
            _piece("bG2", 3, -2), _piece("bA2", 2, -2), _piece("wG2", 0, -1), _piece("bG3", -1, 2),
            _piece("wA2", 2, 1), _piece("bB2", 1, 2), _piece("wG3", 0, 2), _piece("wB2", -2, 1),
            _piece("bA3", 4, -2), _piece("wA3", 3, 0),
        ]
        extra = {"to_move": None, "turn": 45, "last_move": "wA1 bQ-", "last_from": [-3, 1], "last_to": [2, 0],
                 "status": "WhiteWins", "result": "White wins: Black's queen is surrounded."}
    else:
        raise ValueError(f"unknown sample {kind!r}; known: start, middle, end")
    data = {
        "pieces": pieces,
        "hands": _hands([p["id"] for p in pieces]),
        "to_move": None,
        "you": 0,
        "turn": 1,
        "last_move": None,
        "last_from": None,
        "last_to": None,
        "status": "InProgress",
        "game_string": "Base;InProgress;White[1]",
        "expansions": "",
        "pinned": [],
        "result": None,
    }
    data.update(extra)
    return data
