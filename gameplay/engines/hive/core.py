"""The Hive position: pieces on the board, whose turn it is, legal moves, play and undo.

A move is a tuple ``(piece, source, destination)``: ``source`` is None for a placement, and
``PASS`` is the pass. ``Position.play``/``Position.undo`` are incremental so perft and search never
copy the board. Everything here is rules; notation lives in uhp.py, the engine contract in game.py.

Counting conventions follow the Universal Hive Protocol reference engine (Mzinga): identical bugs in
hand are one placement (always the lowest-numbered piece of a bug left in hand), no queen on a
player's first placement, a queen still in hand on the player's 4th turn must be placed then, no
movement before the own queen is placed, and a player without a legal move passes. The piece moved
or placed on the previous turn may not move, be moved by a pillbug, or use its own special ability
this turn (with the pillbug rules this is what "a piece moved by the pillbug cannot move on the next
turn" and "the pillbug cannot move the piece that just moved" amount to).
"""

from __future__ import annotations

from functools import cache

from .board import DIRS, ORIGIN, articulation_points, surrounded
from .moves import (
    ant_targets,
    beetle_targets,
    grasshopper_targets,
    ladybug_targets,
    pillbug_lifts,
    slides,
    spider_targets,
)

BUG_ORDER = "QSBGAMLP"
BUG_COUNTS = {"Q": 1, "S": 2, "B": 2, "G": 3, "A": 3, "M": 1, "L": 1, "P": 1}
BUG_NAMES = {
    "Q": "Queen", "S": "Spider", "B": "Beetle", "G": "Grasshopper", "A": "Ant",
    "M": "Mosquito", "L": "Ladybug", "P": "Pillbug",
}
EXPANSIONS = "MLP"
COLOURS = ("w", "b")
COLOUR_NAMES = {"w": "White", "b": "Black"}
PASS = ("pass", None, None)

NOT_STARTED, IN_PROGRESS = "NotStarted", "InProgress"
DRAW, WHITE_WINS, BLACK_WINS = "Draw", "WhiteWins", "BlackWins"
OVER = (DRAW, WHITE_WINS, BLACK_WINS)


def bugs_in_game(expansions: str, beetles: bool = True) -> str:
    return "".join(
        b for b in BUG_ORDER if (b not in EXPANSIONS or b in expansions) and (beetles or b != "B")
    )


def piece_names(colour: str, expansions: str, beetles: bool = True) -> list[str]:
    """Every piece of one colour, in UHP order (wQ, wS1, wS2, wB1, ...)."""
    names = []
    for bug in bugs_in_game(expansions, beetles):
        n = BUG_COUNTS[bug]
        names.extend([colour + bug] if n == 1 else [f"{colour}{bug}{i}" for i in range(1, n + 1)])
    return names


@cache
def _piece_sets(expansions: str, beetles: bool) -> dict[str, tuple[str, ...]]:
    """Every piece of each colour (``Position.pieces``), built once per set of rules: searches make positions by
    the thousand."""
    return {c: tuple(piece_names(c, expansions, beetles)) for c in COLOURS}


@cache
def piece_label(piece: str) -> str:
    """ "bS1" -> "Black Spider 1"."""
    return f"{COLOUR_NAMES[piece[0]]} {BUG_NAMES[piece[1]]}{' ' + piece[2:] if len(piece) > 2 else ''}"


class Position:
    """Mutable game position. ``limit`` is the turn cap (a draw once that many turns were played)."""

    def __init__(self, expansions: str = "", beetles: bool = True, limit: int = 0):
        self.expansions = "".join(x for x in EXPANSIONS if x in expansions)
        self.beetles = beetles
        self.limit = limit
        self.pieces = _piece_sets(self.expansions, beetles)  # shared by every position of these rules: read only
        self.stacks: dict[int, list[str]] = {}
        self.where: dict[str, int] = {}
        self.ply = 0
        self.last_moved: str | None = None
        self.status = NOT_STARTED
        self.history: list[tuple] = []

    # --- facts ------------------------------------------------------------------------------
    @property
    def colour(self) -> str:
        return COLOURS[self.ply % 2]

    @property
    def turn_number(self) -> int:
        """The mover's own turn number, as in UHP's TurnString ("White[3]")."""
        return self.ply // 2 + 1

    def is_over(self) -> bool:
        return self.status in OVER

    def hand(self, colour: str) -> list[str]:
        where = self.where
        return [p for p in self.pieces[colour] if p not in where]

    def top(self, c: int) -> str | None:
        s = self.stacks.get(c)
        return s[-1] if s else None

    def copy(self) -> Position:
        other = Position(self.expansions, self.beetles, self.limit)
        other.stacks = {c: list(s) for c, s in self.stacks.items()}
        other.where = dict(self.where)
        other.ply, other.last_moved, other.status = self.ply, self.last_moved, self.status
        return other

    # --- move generation --------------------------------------------------------------------
    def placeable(self) -> list[str]:
        """Pieces the mover may place now (the lowest-numbered of each bug left in hand)."""
        colour, turn = self.colour, self.turn_number
        queen = colour + "Q"
        queen_in_hand = queen not in self.where
        if turn == 4 and queen_in_hand:
            return [queen]
        out, seen = [], set()
        for p in self.hand(colour):
            bug = p[1]
            if bug in seen or (bug == "Q" and turn == 1):
                continue
            seen.add(bug)
            out.append(p)
        return out

    def placement_cells(self) -> list[int]:
        stacks = self.stacks
        if not stacks:
            return [ORIGIN]
        if self.ply == 1:
            only = next(iter(stacks))
            return [only + d for d in DIRS]
        colour = self.colour
        candidates = set()
        for c, s in stacks.items():
            if s[-1][0] == colour:
                for d in DIRS:
                    if c + d not in stacks:
                        candidates.add(c + d)
        out = []
        for n in candidates:
            for d in DIRS:
                s = stacks.get(n + d)
                if s and s[-1][0] != colour:
                    break
            else:
                out.append(n)
        out.sort()
        return out

    def moves(self) -> list[tuple]:
        """Every legal move for the side to move; ``[PASS]`` when it has none, ``[]`` once over."""
        if self.status in OVER:
            return []
        result: list[tuple] = []
        pieces = self.placeable()
        if pieces:
            cells = self.placement_cells()
            for p in pieces:
                for c in cells:
                    result.append((p, None, c))
        colour = self.colour
        if colour + "Q" in self.where:
            found: dict[tuple[str, int], int] = {}
            self._movements(colour, found)
            result += [(p, src, dst) for (p, dst), src in found.items()]
        return result or [PASS]

    def _movements(self, colour: str, found: dict) -> None:
        stacks, where, frozen = self.stacks, self.where, self.last_moved
        aps = articulation_points(stacks)
        for piece in self.pieces[colour]:
            c = where.get(piece)
            if c is None or piece == frozen:
                continue
            stack = stacks[c]
            if stack[-1] != piece:
                continue  # covered pieces are pinned
            level = len(stack) - 1
            bug = piece[1]
            if level:  # only beetles and mosquitoes climb; on top both move as a beetle
                for dst in beetle_targets(stacks, c, level):
                    found[(piece, dst)] = c
                continue
            pinned = c in aps
            if bug == "P" or bug == "M":
                copies = {stacks[c + d][-1][1] for d in DIRS if c + d in stacks} if bug == "M" else {"P"}
                if "P" in copies:
                    for moved, src, dst in pillbug_lifts(stacks, c, aps, frozen):
                        found[(moved, dst)] = src
                if pinned:
                    continue
                kinds = copies - {"M"} if bug == "M" else {"Q"}
                if "P" in kinds:
                    kinds = (kinds - {"P"}) | {"Q"}  # a pillbug walks like a queen
            else:
                if pinned:
                    continue
                kinds = (bug,)
            del stacks[c]  # lift the mover
            try:
                for kind in kinds:
                    for dst in self._targets(kind, c):
                        found[(piece, dst)] = c
            finally:
                stacks[c] = stack

    def _targets(self, kind: str, c: int):
        stacks = self.stacks
        if kind == "Q":
            return slides(stacks, c)
        if kind == "A":
            return ant_targets(stacks, c)
        if kind == "S":
            return spider_targets(stacks, c)
        if kind == "G":
            return grasshopper_targets(stacks, c)
        if kind == "B":
            return beetle_targets(stacks, c, 0)
        if kind == "L":
            return ladybug_targets(stacks, c)
        return ()

    # --- play / undo ------------------------------------------------------------------------
    def play(self, move: tuple) -> None:
        """Apply a move known to be legal (no checks: callers validate against ``moves()``)."""
        self.history.append((move, self.last_moved, self.status))
        piece, src, dst = move
        if move == PASS:
            self.last_moved = None
        else:
            if src is not None:
                s = self.stacks[src]
                s.pop()
                if not s:
                    del self.stacks[src]
            self.stacks.setdefault(dst, []).append(piece)
            self.where[piece] = dst
            self.last_moved = piece
        self.ply += 1
        self.status = self._status()

    def undo(self) -> None:
        move, self.last_moved, self.status = self.history.pop()
        self.ply -= 1
        piece, src, dst = move
        if move == PASS:
            return
        s = self.stacks[dst]
        s.pop()
        if not s:
            del self.stacks[dst]
        if src is None:
            del self.where[piece]
        else:
            self.stacks.setdefault(src, []).append(piece)
            self.where[piece] = src

    def queen_surrounded(self, colour: str) -> bool:
        c = self.where.get(colour + "Q")
        return c is not None and surrounded(self.stacks, c)

    def _status(self) -> str:
        white, black = self.queen_surrounded("w"), self.queen_surrounded("b")
        if white and black:
            return DRAW
        if white:
            return BLACK_WINS
        if black:
            return WHITE_WINS
        if self.limit and self.ply >= self.limit:
            return DRAW
        return IN_PROGRESS if self.ply else NOT_STARTED
