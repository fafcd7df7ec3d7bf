"""What the simulated partner works out about the agent's side from its own observation.

The partner plans routes as if the agent could move anywhere, except across the walls it has learnt of:
- walls the agent reported ("I cannot move left because ..."), placed at the cell the agent was deciding
  at, which is the origin of the move the message follows;
- hints the agent ignored twice at the same cell: a person who keeps saying "go down" and sees the other
  player never do it concludes that it cannot (this also keeps the partner from insisting forever when
  the agent is mute).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping

from gameplay.engines.gnomes.maze import Cell, wall_between

from .flags import Flag

_DIRECTION_WORD = re.compile(r"\b(right|left|up|down)\b")
IGNORED_HINTS_FOR_A_WALL = 2


def timeline(data: Mapping) -> list[Cell]:
    """Token cell after k moves, k = 0..len(history)."""
    return [tuple(data["start"])] + [tuple(entry["to"]) for entry in data.get("history") or ()]


def agent_walls(data: Mapping, seat: int, parse: Callable[[str], Flag]) -> set[str]:
    """Edges the partner (``seat``) believes are walls on the agent's side."""
    return reported_walls(data, seat, parse) | ignored_hint_walls(data, seat, parse)


def reported_walls(data: Mapping, seat: int, parse: Callable[[str], Flag]) -> set[str]:
    history = data.get("history") or ()
    cells = timeline(data)
    walls = set()
    for line in data.get("chat") or ():
        if line["seat"] == seat or parse(line["text"]) != Flag.REJECT:
            continue
        found = _DIRECTION_WORD.search(line["text"].lower())
        if not found:
            continue
        turn = int(line["turn"])
        move = history[turn - 1] if 0 < turn <= len(history) else None
        cell = tuple(move["from"]) if move and move["seat"] != seat else cells[min(turn, len(cells) - 1)]
        edge = wall_between(cell, found.group(1))
        if edge is not None:
            walls.add(edge)
    return walls


def ignored_hint_walls(data: Mapping, seat: int, parse: Callable[[str], Flag]) -> set[str]:
    history = data.get("history") or ()
    cells = timeline(data)
    ignored: Counter[tuple[Cell, str]] = Counter()
    for line in data.get("chat") or ():
        if line["seat"] != seat:
            continue
        action = parse(line["text"]).action
        turn = int(line["turn"])
        if action in (None, "stay") or turn >= len(history):
            continue
        reply = history[turn]  # the move right after the hint
        cell = cells[turn]
        if reply["seat"] != seat and reply["action"] != action and tuple(reply["from"]) == cell:
            ignored[(cell, action)] += 1
    return {wall_between(cell, action) for (cell, action), n in ignored.items() if n >= IGNORED_HINTS_FOR_A_WALL}
