"""Box plots as PNG bytes, drawn with Pillow alone (pure: no Django, no matplotlib).

One box per group, left to right in the caller's order: the box spans the quartiles with a line at the
median, whiskers reach the most extreme values within 1.5 IQR of the box (Tukey's rule, as matplotlib and
the seed's figures draw them), values beyond are dots, and each box has its n underneath. Quartiles use
linear interpolation between order statistics (numpy's and matplotlib's default), so the boxes match what a
researcher gets from the CSV in any standard tool.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from gameplay.web import pillow_text
from gameplay.web.pillow_text import font, png_bytes, vertical_text_layer, wrap

INK = (29, 35, 42)
MUTED = (91, 101, 112)
GRID = (226, 224, 218)
BOX_FILL = (214, 228, 247)
BOX_LINE = (31, 95, 191)
OUTLIER = (178, 24, 43)
WHISKER_IQR = 1.5
MAX_LABEL = 18


@dataclass(frozen=True)
class BoxStats:
    n: int
    q1: float
    median: float
    q3: float
    whisker_low: float
    whisker_high: float
    outliers: tuple[float, ...]


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy.percentile's default method)."""
    h = (len(sorted_values) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def box_stats(values: Sequence[float]) -> BoxStats | None:
    if not values:
        return None
    data = sorted(float(v) for v in values)
    q1, median, q3 = quantile(data, 0.25), quantile(data, 0.5), quantile(data, 0.75)
    reach = WHISKER_IQR * (q3 - q1)
    inside = [v for v in data if q1 - reach <= v <= q3 + reach]
    return BoxStats(
        n=len(data),
        q1=q1,
        median=median,
        q3=q3,
        whisker_low=inside[0],
        whisker_high=inside[-1],
        outliers=tuple(v for v in data if v < q1 - reach or v > q3 + reach),
    )


def box_plot(
    groups: Sequence[tuple[str, Sequence[float]]],
    *,
    title: str,
    y_label: str,
    x_label: str = "condition",
    note: str = "",
) -> bytes:
    """A PNG with one box per (label, values); empty groups keep their slot and show n=0."""
    title_font, label_font, tick_font, note_font = font(19), font(15), font(13), font(13)
    slot = 130
    width = max(520, 110 + slot * max(len(groups), 1))
    title_lines = wrap(title, title_font, width - 32)
    note_lines = wrap(note, note_font, width - 32) if note else []
    top = 14 + 25 * len(title_lines) + 18 * len(note_lines) + 18
    left, right, plot_h = 84, 24, 300
    height = top + plot_h + 78
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    draw_heading(draw, title_lines, title_font, note_lines, note_font)

    stats = [box_stats(values) for _, values in groups]
    present = [s for s in stats if s is not None]
    lo = min((min((s.whisker_low, *s.outliers)) for s in present), default=0.0)
    hi = max((max((s.whisker_high, *s.outliers)) for s in present), default=1.0)
    lo = min(lo, 0.0)  # counts and durations read best against zero
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    x0, x1, y0, y1 = left, width - right, top, top + plot_h

    def y(v: float) -> float:
        return y1 - (v - lo) / (hi - lo) * (y1 - y0) if hi > lo else (y0 + y1) / 2

    for t in ticks:
        draw.line([x0, y(t), x1, y(t)], fill=GRID)
        draw.text((x0 - 8, y(t)), _tick_label(t), font=tick_font, fill=INK, anchor="rm")
    draw.line([x0, y0, x0, y1], fill=INK)
    draw.line([x0, y1, x1, y1], fill=INK)
    _vertical_text(img, 22, (y0 + y1) / 2, y_label, label_font)

    step = (x1 - x0) / max(len(groups), 1)
    for i, ((label, _), s) in enumerate(zip(groups, stats, strict=True)):
        cx = x0 + step * (i + 0.5)
        half = min(34, step * 0.3)
        draw.text((cx, y1 + 8), _short(label), font=label_font, fill=INK, anchor="mt")
        draw.text((cx, y1 + 28), f"n={s.n if s else 0}", font=tick_font, fill=MUTED, anchor="mt")
        if s is None:
            continue
        draw.line([cx, y(s.whisker_low), cx, y(s.q1)], fill=BOX_LINE, width=2)
        draw.line([cx, y(s.q3), cx, y(s.whisker_high)], fill=BOX_LINE, width=2)
        for end in (s.whisker_low, s.whisker_high):
            draw.line([cx - half / 2, y(end), cx + half / 2, y(end)], fill=BOX_LINE, width=2)
        draw.rectangle([cx - half, y(s.q3), cx + half, y(s.q1)], fill=BOX_FILL, outline=BOX_LINE, width=2)
        draw.line([cx - half, y(s.median), cx + half, y(s.median)], fill=INK, width=3)
        for v in s.outliers:
            draw.ellipse([cx - 4, y(v) - 4, cx + 4, y(v) + 4], fill=OUTLIER)
    draw.text(((x0 + x1) / 2, y1 + 50), x_label, font=label_font, fill=MUTED, anchor="mt")
    return png_bytes(img)


def nice_ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Round-numbered ticks covering [lo, hi]: the finest 1/2/2.5/5 step giving at most target + 1 of them."""
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    magnitude = 10 ** math.floor(math.log10((hi - lo) / target))
    for step in (m * magnitude * scale for scale in (1, 10, 100) for m in (1, 2, 2.5, 5)):
        first, last = math.floor(lo / step), math.ceil(hi / step)
        if last - first <= target:
            return [round(k * step, 10) for k in range(first, last + 1)]
    return [lo, hi]


# --- helpers -------------------------------------------------------------------


def draw_heading(draw: ImageDraw.ImageDraw, title_lines, title_font, note_lines, note_font) -> None:
    """The analysis figures' title and note (the caller reserves 14 + 25 px a title line + 18 px a note line)."""
    pillow_text.draw_heading(
        draw, (title_lines, title_font, INK), (note_lines, note_font, MUTED), title_step=25, note_step=18
    )


def _tick_label(v: float) -> str:
    text = f"{round(v, 6):g}"
    return "0" if text == "-0" else text


def _short(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _vertical_text(img: Image.Image, cx: float, cy: float, text: str, f: ImageFont.FreeTypeFont) -> None:
    """Text rotated 90° counter-clockwise (read bottom to top), centred on (cx, cy)."""
    layer = vertical_text_layer(text, f, INK)
    img.paste(layer, (int(cx - layer.width / 2), int(cy - layer.height / 2)), layer)
