"""Hex geometry, stacks and hive connectivity for the Hive engine.

Cells are plain ints: ``cell = q * SPAN + r`` in axial coordinates (pointy-top hexagons, r grows
downwards on screen). Neighbours are then a single addition, which keeps move generation fast.
The encoding is exact while ``|r| < SPAN / 2``; a hive of at most 28 pieces moves its bounding box
by at most 28 cells per turn, so even the longest allowed game (``MAX_TURN_LIMIT`` turns) stays far
inside that range.

Directions: E=(+1,0), SE=(0,+1), SW=(-1,+1), W=(-1,0), NW=(0,-1), NE=(+1,-1). ``DIRS`` lists them
clockwise, so the two cells both next to ``c`` and ``c + DIRS[i]`` (the "gate" a piece passes
between) are ``c + DIRS[i - 1]`` and ``c + DIRS[i + 1]``.
"""

from __future__ import annotations

from functools import lru_cache

SPAN = 1 << 20
HALF = SPAN // 2

E, SE, SW, W, NW, NE = SPAN, 1, 1 - SPAN, -SPAN, -1, SPAN - 1
DIRS = (E, SE, SW, W, NW, NE)
DIR_NAMES = {E: "east", SE: "south-east", SW: "south-west", W: "west", NW: "north-west", NE: "north-east"}
# (step, left gate, right gate) per direction: the step's two common neighbours.
STEPS = tuple((DIRS[i], DIRS[i - 1], DIRS[(i + 1) % 6]) for i in range(6))
ORIGIN = 0


def cell(q: int, r: int) -> int:
    return q * SPAN + r


def qr(c: int) -> tuple[int, int]:
    q = (c + HALF) // SPAN
    return q, c - q * SPAN


@lru_cache(maxsize=8192)
def cell_text(c: int) -> str:
    """The "q,r" form used in action paths and JSON payloads."""
    q, r = qr(c)
    return f"{q},{r}"


def parse_cell(text: str) -> int:
    q, r = text.split(",")
    return cell(int(q), int(r))


def height(stacks: dict[int, list[str]], c: int) -> int:
    s = stacks.get(c)
    return len(s) if s else 0


def surrounded(stacks: dict[int, list[str]], c: int) -> bool:
    """True when all six neighbours of ``c`` are occupied."""
    return all(c + d in stacks for d in DIRS)


def articulation_points(stacks: dict[int, list[str]]) -> set[int]:
    """Occupied cells whose emptying would split the hive (Tarjan's algorithm, one DFS).

    Only ground-level removal matters: the top piece of a stack of two or more leaves its cell
    occupied, so callers check a cell's height as well.
    """
    if len(stacks) < 3:
        return set()
    start = next(iter(stacks))
    disc = {start: 0}
    low = {start: 0}
    aps: set[int] = set()
    root_children = 0
    # Iterative DFS: (cell, parent, index of the next direction to try).
    stack = [(start, None, 0)]
    while stack:
        u, parent, i = stack[-1]
        if i < 6:
            stack[-1] = (u, parent, i + 1)
            v = u + DIRS[i]
            if v not in stacks:
                continue
            if v not in disc:
                disc[v] = low[v] = len(disc)
                stack.append((v, u, 0))
            elif v != parent and disc[v] < low[u]:
                low[u] = disc[v]
            continue
        stack.pop()
        if parent is None:
            continue
        if low[u] < low[parent]:
            low[parent] = low[u]
        if parent == start:
            root_children += 1
        elif low[u] >= disc[parent]:
            aps.add(parent)
    if root_children > 1:
        aps.add(start)
    return aps


