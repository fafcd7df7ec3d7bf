"""Hive board pictures drawn from an observation's data, with Pillow alone (no Django).

``render_png(data)`` draws the hive: every occupied cell as a piece (a light hexagon with dark text
for White, dark with light text for Black, a ring in the bug's colour and its letter and number,
e.g. "A1"), stacks with the pieces underneath peeking out, a "×2" badge and an "on bQ" note, the
empty cells around the hive as faint outlines, the last move's source (dashed) and destination
(solid) outlined, and optionally each cell's axial coordinates. Where each cell lies is picture_layout.py's
``geometry``, the same one its ``layout`` gives the page's clickable overlay, so the two line up exactly.

Only the observation data is read: the picture can never show more than the seat may see. Output is
deterministic: the same data gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .picture_layout import NEIGHBOURS, cell_name, geometry, hex_points, piece_label, point

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


# --- drawing -------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)


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
    bug, number = piece_label(piece)
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
    geo = geometry(data, size_hint)
    s = SUPERSAMPLE
    radius = geo["radius"] * s
    img = Image.new("RGB", (geo["width"] * s, geo["height"] * s), BACKGROUND)
    draw = ImageDraw.Draw(img)
    centres = {c: (x * s, y * s) for c, (x, y) in geo["centres"].items()}
    stacks = geo["stacks"]
    last_from, last_to = point(data, "last_from"), point(data, "last_to")
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


# --- the hook HiveGame calls -----------------------------------------------------------------


def observation_png(observation, *, coords: bool = False) -> bytes:
    """PNG bytes of an engine Observation (or its ``data`` mapping): for Game.observation_image."""
    return render_png(getattr(observation, "data", observation), coords=coords)
