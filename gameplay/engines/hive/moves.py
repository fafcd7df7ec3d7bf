"""Per-bug movement rules on a stacks dict ``{cell: [piece, ...]}`` (bottom to top).

Sliding rules (queen, spider, ant, pillbug): the moving piece has been lifted off the board by the
caller. A slide from ``x`` to the empty neighbour ``y`` is allowed when exactly one of the two cells
next to both is occupied: both occupied is a closed gate (freedom to move), neither occupied means
the piece would lose contact with the hive during the step (One Hive).

Climbing rules (beetle, ladybug, the pillbug's lift, a mosquito on top): a piece at level ``h_src``
(pieces below it) moving to a stack of ``h_dst`` pieces may not pass between two gate stacks that are
both higher than both ``h_src`` and ``h_dst``; on the ground a step must still touch the hive.
"""

from __future__ import annotations

from .board import DIRS, NE, NW, SE, STEPS, SW, E, W


def slides(stacks: dict, c: int) -> list[int]:
    """Empty cells one legal sliding step away from ``c`` (mover lifted)."""
    # Each neighbour is looked up once (not three times, as cell and gate of the steps next to it): the hot path
    # of every ant, spider, queen and pillbug.
    e, se, sw = c + E in stacks, c + SE in stacks, c + SW in stacks
    w, nw, ne = c + W in stacks, c + NW in stacks, c + NE in stacks
    out = []
    # A step is open when its cell is empty and exactly one of its two gates (the steps before and after) is taken.
    if not e and ne != se:
        out.append(c + E)
    if not se and e != sw:
        out.append(c + SE)
    if not sw and se != w:
        out.append(c + SW)
    if not w and sw != nw:
        out.append(c + W)
    if not nw and w != ne:
        out.append(c + NW)
    if not ne and nw != e:
        out.append(c + NE)
    return out


def ant_targets(stacks: dict, c: int) -> set[int]:
    """Every cell reachable by any number of slides (mover lifted)."""
    seen = {c}
    todo = [c]
    while todo:
        for n in slides(stacks, todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    seen.discard(c)
    return seen


def spider_targets(stacks: dict, c: int) -> set[int]:
    """Cells at the end of a path of exactly three slides visiting no cell twice (mover lifted)."""
    out = set()
    for n1 in slides(stacks, c):
        for n2 in slides(stacks, n1):
            if n2 == c:
                continue
            for n3 in slides(stacks, n2):
                if n3 != c and n3 != n1:
                    out.add(n3)
    return out


def grasshopper_targets(stacks: dict, c: int) -> list[int]:
    """First empty cell along each straight line that starts with at least one piece."""
    out = []
    for d in DIRS:
        n = c + d
        if n not in stacks:
            continue
        while n in stacks:
            n += d
        out.append(n)
    return out


def _h(stacks: dict, c: int) -> int:
    s = stacks.get(c)
    return len(s) if s else 0


def climb_ok(level: int, dest: int, g1: int, g2: int) -> bool:
    """The climbing gate rule plus ground contact, for one step of a piece that may climb."""
    if level == 0 and dest == 0 and g1 == 0 and g2 == 0:
        return False  # a ground step touching nothing would leave the hive
    return not (g1 > level and g2 > level and g1 > dest and g2 > dest)


def beetle_targets(stacks: dict, c: int, level: int) -> list[int]:
    """One step in any direction, onto or off the hive.

    ``level`` is the number of pieces under the mover at ``c``; a ground mover (level 0) must have
    been lifted by the caller, a mover on top of a stack may stay in the dict (``c`` is never a gate).
    """
    out = []
    for d, left, right in STEPS:
        n = c + d
        if climb_ok(level, _h(stacks, n), _h(stacks, c + left), _h(stacks, c + right)):
            out.append(n)
    return out


def ladybug_targets(stacks: dict, c: int) -> set[int]:
    """Two steps on top of the hive, then one step down to an empty cell (mover lifted)."""
    out = set()
    for d1, l1, r1 in STEPS:
        n1 = c + d1
        h1 = _h(stacks, n1)
        if h1 == 0 or not climb_ok(0, h1, _h(stacks, c + l1), _h(stacks, c + r1)):
            continue
        for d2, l2, r2 in STEPS:
            n2 = n1 + d2
            h2 = _h(stacks, n2)
            if h2 == 0 or not climb_ok(h1, h2, _h(stacks, n1 + l2), _h(stacks, n1 + r2)):
                continue
            for d3, l3, r3 in STEPS:
                n3 = n2 + d3
                if n3 == c or n3 in stacks:
                    continue
                if climb_ok(h2, 0, _h(stacks, n2 + l3), _h(stacks, n2 + r3)):
                    out.add(n3)
    return out


def pillbug_lifts(stacks: dict, p: int, aps: set[int], frozen: str | None) -> list[tuple[str, int, int]]:
    """The pillbug's special ability from ``p``: (piece, from, to) for each neighbour it may move.

    The moved piece must be alone on its cell (not part of a stack, not covering anything), must not
    be the piece moved or placed on the previous turn (``frozen``), and must not be an articulation
    point of the hive. It climbs onto the pillbug and comes down on an empty cell next to the
    pillbug; both steps obey the climbing gate rule, computed with the piece lifted off its cell.
    """
    empties = [p + d for d in DIRS if p + d not in stacks]
    if not empties:
        return []
    hp = len(stacks[p])
    out = []
    for d, left, right in STEPS:
        n = p + d
        s = stacks.get(n)
        if not s or len(s) != 1 or s[0] == frozen or n in aps:
            continue
        if not climb_ok(0, hp, _h(stacks, p + left), _h(stacks, p + right)):
            continue
        piece = s[0]
        del stacks[n]  # lift it: its cell may be a gate of the step down
        try:
            for d2, l2, r2 in STEPS:
                e = p + d2
                if e in stacks or e == n:
                    continue
                if climb_ok(hp, 0, _h(stacks, p + l2), _h(stacks, p + r2)):
                    out.append((piece, n, e))
        finally:
            stacks[n] = s
    return out
