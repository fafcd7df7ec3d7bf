"""Text helpers shared by the platform's Pillow figures (rating plots, study box plots). Pure: Pillow only."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont


def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def text_width(f: ImageFont.FreeTypeFont, text: str) -> int:
    box = f.getbbox(text)
    return int(box[2] - box[0])


def wrap(text: str, f: ImageFont.FreeTypeFont, max_width: int) -> list[str]:
    """Greedy word wrap to lines no wider than max_width (a single long word stays whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f, f"{lines[-1]} {word}") <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def vertical_text_layer(text: str, f: ImageFont.FreeTypeFont, ink: tuple[int, int, int]) -> Image.Image:
    """The text rotated 90° counter-clockwise (read bottom to top) on a transparent layer, ready to paste."""
    box = f.getbbox(text)
    w, h = box[2] - box[0] + 4, box[3] - box[1] + 6
    layer = Image.new("RGBA", (w, h), (255, 255, 255, 0))
    ImageDraw.Draw(layer).text((2 - box[0], 3 - box[1]), text, font=f, fill=ink + (255,))
    return layer.rotate(90, expand=True)


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()
