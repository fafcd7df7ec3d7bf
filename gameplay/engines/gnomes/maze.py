"""Maze geometry for Gnomes at Night: cells, moves and one side's walls. Pure and dependency-free.

Coordinates: a cell is (x, y) with x the column (0 = left) and y the row (0 = top); "up" is y - 1.
A wall is named by the cell it borders and the edge: ``"x,y:right"`` lies between (x, y) and
(x + 1, y); ``"x,y:down"`` lies between (x, y) and (x, y + 1). The outer boundary is implicit.
Agents build a ``Maze`` from the walls in their own observation; nothing here knows the other side.
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]

# Action ids in the testbed's order (noop, right, up, left, down).
ACTIONS: tuple[str, ...] = ("stay", "right", "up", "left", "down")
DELTAS: dict[str, Cell] = {"stay": (0, 0), "right": (1, 0), "up": (0, -1), "left": (-1, 0), "down": (0, 1)}
OPPOSITE: dict[str, str] = {"stay": "stay", "right": "left", "left": "right", "up": "down", "down": "up"}



def parse_cell(text: str) -> Cell:
    x, y = text.split(",")
    return int(x), int(y)


def parse_wall(name: str) -> tuple[Cell, str]:
    """The cell a wall borders and its edge ("right" or "down"), from the wall's name ("x,y:right")."""
    cell, _, edge = name.partition(":")
    return parse_cell(cell), edge


def wall_between(cell: Cell, action: str) -> str | None:
    """The name of the wall a move from ``cell`` in ``action``'s direction would cross (None for stay)."""
    x, y = cell
    if action == "right":
        return f"{x},{y}:right"
    if action == "left":
        return f"{x - 1},{y}:right"
    if action == "down":
        return f"{x},{y}:down"
    if action == "up":
        return f"{x},{y - 1}:down"
    return None


def neighbour(cell: Cell, action: str) -> Cell:
    dx, dy = DELTAS[action]
    return cell[0] + dx, cell[1] + dy


class Maze:
    """One side of the board: the grid size and that side's walls."""

    __slots__ = ("size", "walls")

    def __init__(self, size: int, walls: Iterable[str]):
        self.size = size
        self.walls = frozenset(walls)

    def on_grid(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size

    def can_move(self, cell: Cell, action: str) -> bool:
        """Whether this side lets the token make this move (stay always succeeds)."""
        if action == "stay":
            return True
        return self.on_grid(neighbour(cell, action)) and wall_between(cell, action) not in self.walls

    def step(self, cell: Cell, action: str) -> tuple[Cell, bool]:
        """(cell after the attempt, whether the attempt was blocked)."""
        if self.can_move(cell, action):
            return neighbour(cell, action), False
        return cell, True

    def cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.size) for x in range(self.size)]

    def interior_walls(self) -> list[str]:
        """Every interior edge of the grid by name (walls or not): the space walls are drawn from."""
        names = []
        for y in range(self.size):
            for x in range(self.size):
                if x + 1 < self.size:
                    names.append(f"{x},{y}:right")
                if y + 1 < self.size:
                    names.append(f"{x},{y}:down")
        return names
