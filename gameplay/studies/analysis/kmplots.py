"""Kaplan-Meier curves as PNG bytes, drawn with Pillow alone (pure: no Django, no matplotlib).

One step curve per condition, in the caller's order and in colours that stay apart for the common colour
vision deficiencies (Okabe-Ito), each also drawn with its own dash pattern so the figure survives greyscale.
Censored rounds are the small vertical ticks on a curve, as survival plots conventionally mark them; the
legend gives each condition's rounds, goals reached and censored rounds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from gameplay.web.pillow_text import font, png_bytes, wrap

from .boxplots import GRID, INK, MUTED, _short, _tick_label, _vertical_text, draw_heading, nice_ticks
from .survival import Curve

COLOURS = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233), (230, 159, 0))
DASHES = (None, (10, 5), (3, 4), (12, 4, 3, 4))


def km_plot(
    curves: Sequence[tuple[str, Curve | None]], *, title: str, x_label: str, note: str = ""
) -> bytes:
    title_font, label_font, tick_font, note_font = font(19), font(15), font(13), font(13)
    width = 640
    title_lines = wrap(title, title_font, width - 32)
    note_lines = wrap(note, note_font, width - 32) if note else []
    top = 14 + 25 * len(title_lines) + 18 * len(note_lines) + 18
    left, right, plot_h = 84, 24, 280
    legend_h = 22 * len(curves) + 8
    height = top + plot_h + 64 + legend_h
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    draw_heading(draw, title_lines, title_font, note_lines, note_font)

    present = [c for _, c in curves if c is not None]
    hi = max((max(c.times) for c in present), default=1.0)
    ticks = nice_ticks(0.0, hi)
    hi = max(hi, ticks[-1])
    x0, x1, y0, y1 = left, width - right, top, top + plot_h

    def x(t: float) -> float:
        return x0 + t / hi * (x1 - x0) if hi > 0 else x0

    def y(s: float) -> float:
        return y1 - s * (y1 - y0)

    for s in (0.0, 0.25, 0.5, 0.75, 1.0):
        draw.line([x0, y(s), x1, y(s)], fill=GRID)
        draw.text((x0 - 8, y(s)), f"{s:g}", font=tick_font, fill=INK, anchor="rm")
    for t in ticks:
        draw.line([x(t), y1, x(t), y1 + 4], fill=INK)
        draw.text((x(t), y1 + 7), _tick_label(t), font=tick_font, fill=INK, anchor="mt")
    draw.line([x0, y0, x0, y1], fill=INK)
    draw.line([x0, y1, x1, y1], fill=INK)
    _vertical_text(img, 22, (y0 + y1) / 2, "goal not yet reached", label_font)
    draw.text(((x0 + x1) / 2, y1 + 26), x_label, font=label_font, fill=MUTED, anchor="mt")

    legend_y = y1 + 52
    for i, (label, curve) in enumerate(curves):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        ly = legend_y + 22 * i + 8
        _dashed(draw, [(x0, ly), (x0 + 36, ly)], colour, dash)
        summary = "no rounds" if curve is None else f"n={curve.n}, goal {curve.events}, censored {curve.censored}"
        draw.text((x0 + 44, ly), f"{_short(label)}: {summary}", font=tick_font, fill=INK, anchor="lm")
        if curve is None:
            continue
        points, level = [(x(0), y(1.0))], 1.0
        for t, s in zip(curve.times, curve.survival, strict=True):
            points += [(x(t), y(level)), (x(t), y(s))]
            level = s
        _dashed(draw, points, colour, dash)
        for t, s, censored in zip(curve.times, curve.survival, curve.censored_at, strict=True):
            if censored:
                draw.line([x(t), y(s) - 6, x(t), y(s) + 6], fill=colour, width=2)
    return png_bytes(img)


def _dashed(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], colour, dash) -> None:
    """A polyline, solid or with a repeating on/off dash pattern (lengths in pixels) carried across corners."""
    if dash is None:
        draw.line(points, fill=colour, width=3)
        return
    pattern, index, left, on = dash, 0, dash[0], True
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        done = 0.0
        while done < length:
            step = min(left, length - done)
            if on:
                f0, f1 = done / length, (done + step) / length
                draw.line([ax + (bx - ax) * f0, ay + (by - ay) * f0, ax + (bx - ax) * f1, ay + (by - ay) * f1],
                          fill=colour, width=3)
            done += step
            left -= step
            if left <= 1e-9:
                index = (index + 1) % len(pattern)
                left, on = pattern[index], index % 2 == 0  # patterns alternate on, off, on, off...
