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


def draw_heading(
    draw: ImageDraw.ImageDraw,
    title: tuple[list[str], ImageFont.FreeTypeFont, tuple[int, int, int]],
    note: tuple[list[str], ImageFont.FreeTypeFont, tuple[int, int, int]],
    *,
    title_step: int,
    note_step: int,
) -> None:
    """A figure's wrapped title lines, then its smaller note lines, from the top-left corner; each is
    (lines, font, colour), and the steps are the line heights the caller reserved room for."""
    y = 12
    lines, f, colour = title
    for line in lines:
        draw.text((16, y), line, font=f, fill=colour)
        y += title_step
    lines, f, colour = note
    for line in lines:
        draw.text((16, y + (note_step - 15)), line, font=f, fill=colour)
        y += note_step
