"""Shared helpers of the leaderboard view tests: a page's HTML, and readers of its tables, images and PNG figures."""

from __future__ import annotations

import io
import re

from PIL import Image

GAMEBENCH_AGENTS = {"gpt-3", "gpt-3-cot", "gpt-4", "gpt-4-cot", "gpt-4-rap", "human", "random"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def html_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def tables(html: str) -> list[str]:
    return re.findall(r"<table class=\"matches ratings[^\"]*\">.*?</table>", html, flags=re.S)


def row_agents(table: str) -> list[str]:
    return re.findall(r'<th scope="row" class="agent">([^<]+)</th>', table)


def image_urls(html: str) -> list[str]:
    return [u.replace("&amp;", "&") for u in re.findall(r'<img src="([^"]+)"', html)]


def assert_png(response, min_width: int = 600) -> Image.Image:
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(response.content))
    image.verify()
    image = Image.open(io.BytesIO(response.content))
    assert image.width >= min_width and image.height >= 100
    return image
