"""Shared helpers of the Gnomes at Night platform tests: a match of two people, a move as the seat's own, each side's
walls, and the walls a page's SVG draws."""

from __future__ import annotations

import re

from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.models import Match
from gameplay.writes import services
from gameplay.writes.services import SeatController

HUMAN = SeatController("human")
SIDE_WALLS = default_layouts().walls
WALL_LINE = re.compile(r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)" class="wall"/>')


def two_humans(**options) -> Match:
    return services.create_match("gnomes", [HUMAN, HUMAN], seed=5, options=options)


def move(match: Match, seat: int, action: str) -> Match:
    match.refresh_from_db()
    return services.submit_action(match.pk, seat, action, expected_version=match.version)


def drawn_walls(html: str) -> set[str]:
    """Wall names back from the SVG's wall segments (a right edge is vertical, a bottom edge horizontal)."""
    names = set()
    for x1, y1, x2, _y2 in (tuple(int(float(v)) for v in m) for m in WALL_LINE.findall(html)):
        names.add(f"{x1 - 1},{y1}:right" if x1 == x2 else f"{x1},{y1 - 1}:down")
    return names
