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


@lru_cache(maxsize=8192)
def parse_cell(text: str) -> int:
    """The cell of a "q,r" text (cached like ``cell_text``: every clone of a state reads its cells back)."""
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
    occupied, so callers check a cell's height as well. The DFS recurses: a hive has at most 28 cells,
    far below Python's recursion limit, and the recursive form takes half the time of an explicit stack
    (move generation runs this once per position).
    """
    if len(stacks) < 3:
        return set()
    disc: dict[int, int] = {}
    aps: set[int] = set()

    def visit(u: int, parent: int | None) -> int:
        """Number ``u`` in DFS order, visit what it reaches; the lowest number reachable back from below ``u``."""
        du = disc[u] = len(disc)
        low = du
        children = 0
        for d in DIRS:
            v = u + d
            if v == parent or v not in stacks:
                continue
            dv = disc.get(v)
            if dv is None:
                children += 1
                lv = visit(v, u)
                if lv < low:
                    low = lv
                if parent is not None and lv >= du:
                    aps.add(u)  # v's subtree reaches nothing above u: removing u cuts it off
            elif dv < low:
                low = dv
        if parent is None and children > 1:
            aps.add(u)  # the root splits the hive when the DFS left it more than once
        return low

    visit(next(iter(stacks)), None)
    return aps
