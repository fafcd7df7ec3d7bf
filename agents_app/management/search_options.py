"""Options of the search measurement commands (``search_ladder``)."""

from __future__ import annotations

from django.core.management.base import CommandError

from agents_app.agents.search.levels import LEVELS


def parse_levels(text: str) -> list[int]:
    """``--levels 1,2,3`` as sorted level numbers; a clear error for anything that is not a list of known levels."""
    try:
        levels = sorted({int(level) for level in text.split(",") if level})
    except ValueError:
        raise CommandError("--levels takes numbers, e.g. 1,2,3") from None
    if not levels or any(level not in LEVELS for level in levels):
        raise CommandError(f"--levels must name levels among {sorted(LEVELS)}")
    return levels
