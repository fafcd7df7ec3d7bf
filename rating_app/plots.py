"""Leaderboard figures as PNG bytes, drawn with Pillow alone.

``whisker_plot``: one row per agent, best first — the mean rating as a dot, its interval as a
line, a dashed line at 0 (the average rated agent). ``heatmap``: an annotated matrix with a
colour bar, for the win probabilities and the match counts of a scope.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from gameplay.web.pillow_text import draw_heading, font, png_bytes, text_width, vertical_text_layer, wrap
from rating_app.ratings import ScopeRating

WIDTH = 800
INK = (29, 35, 42)
MUTED = (91, 101, 112)
GRID = (226, 224, 218)
STRIPE = (246, 245, 241)
ACCENT = (31, 95, 191)
ZERO = (120, 120, 120)
MASK = (214, 214, 214)
MAX_LABEL = 28  # characters of an agent name shown on a plot

# Diverging scale for probabilities (0: red, centre: white, 1: blue) and a sequential one for counts.
DIVERGING = ((178, 24, 43), (247, 247, 247), (33, 102, 172))
SEQUENTIAL = ((247, 251, 255), (107, 174, 214), (8, 48, 107))


def whisker_plot(
    scope_rating: ScopeRating,
    *,
    title: str | None = None,
    bootstrap: int | None = None,
    interval: float = 0.9,
    width: int = WIDTH,
) -> bytes:
    """Ratings of one scope with their intervals, best agent at the top; ``width`` in pixels."""
    ratings = scope_rating.ratings
    label_font, tick_font, title_font, note_font = font(16), font(14), font(20), font(14)
    labels = [f"{r.rank}. {_short(r.agent)}" for r in ratings]
    left = 20 + max((text_width(label_font, t) for t in labels), default=40)
    right, row_h = 30, 36
    heading = title or scope_rating.scope
    parts = [f"{round(interval * 100)}% interval"] + ([f"B={bootstrap:,}"] if bootstrap else [])
    title_lines = wrap(f"{heading}: {', '.join(parts)}", title_font, width - 32)
    note_lines = wrap(
        "dot: mean rating (log-strength) · line: interval · dashed line: 0 = average rated agent", note_font, width - 32
    )
    caption_lines = wrap("rating (log-strength, centred on the rated agents)", tick_font, width - 32)
    top = 14 + 26 * len(title_lines) + 19 * len(note_lines) + 16
    bottom = 34 + 19 * len(caption_lines) + 8
    height = top + row_h * max(len(ratings), 1) + bottom
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    _draw_heading(draw, title_lines, title_font, note_lines, note_font)

    lo = min([r.low for r in ratings] + [0.0])
    hi = max([r.high for r in ratings] + [0.0])
    pad = max(hi - lo, 0.5) * 0.04
    lo, hi = lo - pad, hi + pad
    x0, x1 = left, width - right
    ticks = _nice_ticks(lo, hi, target=max(3, min(8, (x1 - x0) // 70)))

    def x(v: float) -> float:
        return x0 + (v - lo) / (hi - lo) * (x1 - x0) if hi > lo else (x0 + x1) / 2

    plot_bottom = top + row_h * len(ratings)
    for i in range(len(ratings)):
        if i % 2 == 0:
            draw.rectangle([x0, top + i * row_h, x1, top + (i + 1) * row_h - 1], fill=STRIPE)
    for t in ticks:
        draw.line([x(t), top, x(t), plot_bottom], fill=GRID, width=1)
        draw.line([x(t), plot_bottom, x(t), plot_bottom + 5], fill=INK, width=1)
        draw.text((x(t), plot_bottom + 8), _tick_label(t), font=tick_font, fill=INK, anchor="mt")
    _dashed_vline(draw, x(0.0), top - 4, plot_bottom, ZERO)
    draw.line([x0, plot_bottom, x1, plot_bottom], fill=INK, width=1)
    for k, line in enumerate(caption_lines):
        draw.text((width / 2, plot_bottom + 32 + 19 * k), line, font=tick_font, fill=MUTED, anchor="mt")

    for i, (r, label) in enumerate(zip(ratings, labels, strict=True)):
        y = top + i * row_h + row_h / 2
        draw.text((x0 - 10, y), label, font=label_font, fill=INK, anchor="rm")
        a, b = x(r.low), x(r.high)
        draw.line([a, y, b, y], fill=ACCENT, width=3)
        draw.line([a, y - 7, a, y + 7], fill=ACCENT, width=2)
        draw.line([b, y - 7, b, y + 7], fill=ACCENT, width=2)
        c = x(r.rating)
        draw.ellipse([c - 6, y - 6, c + 6, y + 6], fill=ACCENT, outline="white", width=2)
    return png_bytes(img)


def heatmap(
    matrix: Sequence[Sequence[float]],
    labels: Sequence[str],
    title: str,
    fmt: str = "{:.2f}",
    *,
    subtitle: str = "",
    vmin: float | None = None,
    vmax: float | None = None,
    center: float | None = None,
    mask_diagonal: bool = True,
    width: int = WIDTH,
) -> bytes:
    """Annotated matrix; rows and columns in ``labels`` order. ``center`` set: diverging colours.

    ``fmt`` formats each cell (``"{:.2f}"``, ``"{:d}"``); the diagonal (an agent against itself)
    is greyed out unless ``mask_diagonal`` is False. ``width`` is a target: cells never get smaller
    than 34 pixels, so a large matrix makes a wider image.
    """
    n = len(labels)
    values = [float(v) for row in matrix for v in row]
    vmin = min(values, default=0.0) if vmin is None else vmin
    vmax = max(values, default=1.0) if vmax is None else vmax
    if vmax <= vmin:
        vmax = vmin + 1
    label_font, title_font, note_font, tick_font = font(15), font(20), font(14), font(13)
    short = [_short(t) for t in labels]
    label_w = max((text_width(label_font, t) for t in short), default=40)
    legend_w = 90
    left = 20 + label_w
    cell = int(max(34, min(84, (width - left - legend_w - 20) / max(n, 1))))
    width = max(width, left + n * cell + legend_w + 20)
    title_lines = wrap(title, title_font, width - 32)
    note_lines = wrap(subtitle, note_font, width - 32) if subtitle else []
    head = 14 + 26 * len(title_lines) + 19 * len(note_lines)
    top = head + 16 + label_w + 12
    height = top + n * cell + 24
    img = Image.new("RGB", (width, max(height, top + 160)), "white")
    draw = ImageDraw.Draw(img)
    _draw_heading(draw, title_lines, title_font, note_lines, note_font)

    scale = DIVERGING if center is not None else SEQUENTIAL
    mid = center if center is not None else (vmin + vmax) / 2
    cell_font = font(max(12, min(17, cell // 3)))
    for j, text in enumerate(short):  # column labels, read bottom to top
        _vertical_text(img, left + j * cell + cell / 2, top - 8, text, label_font)
    for i, text in enumerate(short):
        draw.text((left - 10, top + i * cell + cell / 2), text, font=label_font, fill=INK, anchor="rm")
        for j in range(n):
            box = [left + j * cell, top + i * cell, left + (j + 1) * cell - 1, top + (i + 1) * cell - 1]
            centre = (left + j * cell + cell / 2, top + i * cell + cell / 2)
            if mask_diagonal and i == j:
                draw.rectangle(box, fill=MASK)
                draw.text(centre, "-", font=cell_font, fill=MUTED, anchor="mm")
                continue
            value = matrix[i][j]
            colour = _colour(float(value), vmin, mid, vmax, scale)
            draw.rectangle(box, fill=colour, outline="white")
            draw.text(centre, fmt.format(value), font=cell_font, fill=_text_on(colour), anchor="mm")
    draw.rectangle([left, top, left + n * cell - 1, top + n * cell - 1], outline=GRID)

    # Colour bar with its end and middle values.
    bar_x, bar_h = left + n * cell + 24, max(120, min(n * cell, 260))
    for k in range(bar_h):
        v = vmax - (vmax - vmin) * k / (bar_h - 1)
        draw.line([bar_x, top + k, bar_x + 16, top + k], fill=_colour(v, vmin, mid, vmax, scale))
    draw.rectangle([bar_x, top, bar_x + 16, top + bar_h - 1], outline=MUTED)
    for v, yy in ((vmax, top), (mid, top + (bar_h - 1) / 2), (vmin, top + bar_h - 1)):
        draw.line([bar_x + 16, yy, bar_x + 21, yy], fill=MUTED)
        draw.text((bar_x + 24, yy), _legend_label(v, fmt), font=tick_font, fill=INK, anchor="lm")
    return png_bytes(img)


# --- helpers -------------------------------------------------------------------


def _short(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 3] + "..."


def _vertical_text(img: Image.Image, cx: float, bottom: float, text: str, f: ImageFont.FreeTypeFont) -> None:
    """Text rotated 90° counter-clockwise, centred on x = cx, its end at y = bottom."""
    layer = vertical_text_layer(text, f, INK)
    img.paste(layer, (int(cx - layer.width / 2), int(bottom - layer.height)), layer)


def _dashed_vline(draw: ImageDraw.ImageDraw, x: float, y0: float, y1: float, fill, dash: int = 6) -> None:
    y = y0
    while y < y1:
        draw.line([x, y, x, min(y + dash, y1)], fill=fill, width=2)
        y += 2 * dash


def _nice_ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Round-numbered ticks inside [lo, hi]: the finest 1/2/2.5/5 step giving at most target + 1 of them."""
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    magnitude = 10 ** math.floor(math.log10((hi - lo) / (target + 1)))
    for step in (m * magnitude * scale for scale in (1, 10, 100) for m in (1, 2, 2.5, 5)):
        ticks = [round(k * step, 10) for k in range(math.ceil(lo / step), math.floor(hi / step) + 1)]
        if len(ticks) <= target + 1:
            return ticks
    return [lo, hi]


def _tick_label(v: float) -> str:
    text = f"{round(v, 6):g}"
    return "0" if text == "-0" else text


def _legend_label(v: float, fmt: str) -> str:
    try:
        return fmt.format(v)
    except ValueError:  # an integer format given a float mid-point
        return f"{v:g}"


def _colour(v: float, vmin: float, mid: float, vmax: float, scale) -> tuple[int, int, int]:
    lo_c, mid_c, hi_c = scale
    if v <= mid:
        t = 0.0 if mid == vmin else (v - vmin) / (mid - vmin)
        a, b = lo_c, mid_c
    else:
        t = 1.0 if vmax == mid else (v - mid) / (vmax - mid)
        a, b = mid_c, hi_c
    t = min(max(t, 0.0), 1.0)
    return tuple(round(a[k] + (b[k] - a[k]) * t) for k in range(3))


def _text_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def _draw_heading(draw, title_lines, title_font, note_lines, note_font) -> None:
    """Title lines, then smaller note lines, from the top-left corner of a figure."""
    draw_heading(draw, (title_lines, title_font, INK), (note_lines, note_font, MUTED), title_step=26, note_step=19)
