"""Determinization: sampled guesses of the hidden things (partner walls, treasure) and exact costs in each.

The ego never sees the partner's walls and may not see the treasure, so the planner searches over a pool
of sampled worlds instead of the true one. A world fixes the partner's walls (known walls and rejections
are walls, known-open edges are open, every other interior edge is a wall with probability WALL_PRIOR) and
a treasure cell drawn from the belief. Each world carries a cost-to-go table: the fewest turns to the
treasure from (cell, player to move) when both players cooperate perfectly in that world, found by one
backward BFS. That makes a search leaf's value an O(1) lookup.

Cells are ints (y * size + x) and actions are indexes into maze.ACTIONS, so the search loop does list
indexing only.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gameplay.engines.gnomes.maze import ACTIONS, Cell, neighbour, wall_between

# Prior that an interior edge is a wall on the partner's side. The testbed's sides have 47 and 45 walls
# among 144 interior edges (~0.33); hard-coded as a plain density, never read from the layouts.
WALL_PRIOR = 0.33

EGO, PARTNER = 0, 1
STAY = 0
UNREACHABLE = 10**6


class Grid:
    """Index tables for one board size: neighbour cell and edge name per (cell, action)."""

    def __init__(self, size: int):
        self.size = size
        self.cells = size * size
        self.target: list[int] = []  # cell*5 + a -> neighbour cell, or -1 when off the grid
        self.edge: list[str | None] = []  # cell*5 + a -> interior edge name, None for stay/off grid
        for index in range(self.cells):
            cell = self.cell_of(index)
            for action in ACTIONS:
                other = neighbour(cell, action)
                inside = 0 <= other[0] < size and 0 <= other[1] < size
                self.target.append(self.index_of(other) if inside else -1)
                self.edge.append(wall_between(cell, action) if inside and action != "stay" else None)
        self.edge_names = sorted({name for name in self.edge if name})

    def index_of(self, cell: Cell) -> int:
        return cell[1] * self.size + cell[0]

    def cell_of(self, index: int) -> Cell:
        return index % self.size, index // self.size

    def transitions(self, walls: Iterable[str]) -> list[int]:
        """cell*5 + a -> cell after the move on a side with these walls (the same cell when blocked)."""
        walls = set(walls)
        result = []
        for index in range(self.cells):
            base = index * 5
            for a in range(5):
                target, edge = self.target[base + a], self.edge[base + a]
                result.append(target if target >= 0 and (edge is None or edge not in walls) else index)
        return result


@dataclass
class World:
    """One determinization: partner transitions, treasure and the cooperative cost-to-go tables."""

    partner_next: list[int]
    treasure: int
    cost: tuple[list[int], list[int]]  # cost[player to move][cell] in turns (UNREACHABLE if never)


def cost_to_go(grid: Grid, ego_next: list[int], partner_next: list[int], treasure: int) -> tuple[list[int], list[int]]:
    """Fewest turns to the treasure from every (cell, mover), both players cooperating (backward BFS).

    From (c, m) the mover picks any move open on its side (or stays) and the turn passes, so the
    predecessors of (c', m') are (c, 1 - m') for c = c' and every c that side 1 - m' links to c'.
    Edges are symmetric, so "links to" is read off the forward transition table.
    """
    sides = (ego_next, partner_next)
    linked = ([[] for _ in range(grid.cells)], [[] for _ in range(grid.cells)])
    for player in (EGO, PARTNER):
        table, lists = sides[player], linked[player]
        for index in range(grid.cells):
            base = index * 5
            for a in range(1, 5):
                other = table[base + a]
                if other != index:
                    lists[other].append(index)
    cost = ([UNREACHABLE] * grid.cells, [UNREACHABLE] * grid.cells)
    cost[EGO][treasure] = cost[PARTNER][treasure] = 0
    frontier = [(treasure, EGO), (treasure, PARTNER)]
    while frontier:
        following = []
        for cell, mover_after in frontier:
            mover = 1 - mover_after
            step = cost[mover_after][cell] + 1
            row = cost[mover]
            if row[cell] > step:
                row[cell] = step
                following.append((cell, mover))
            for before in linked[mover][cell]:
                if row[before] > step:
                    row[before] = step
                    following.append((before, mover))
        frontier = following
    return cost


def sample_worlds(
    grid: Grid,
    ego_next: list[int],
    known_walls: set[str],
    known_open: set[str],
    treasure_weights: Mapping[Cell, float],
    rng: random.Random,
    count: int,
    wall_prior: float = WALL_PRIOR,
    wall_chance: Mapping[str, float] | None = None,
) -> list[World]:
    """``count`` determinizations drawn with ``rng``; the treasure from ``treasure_weights``.

    ``wall_chance`` overrides the prior for single edges (evidence short of certainty).
    """
    chance = wall_chance or {}
    unknown = [
        (name, chance.get(name, wall_prior))
        for name in grid.edge_names
        if name not in known_walls and name not in known_open
    ]
    candidates = list(treasure_weights)
    weights = [treasure_weights[c] for c in candidates]
    worlds = []
    for _ in range(count):
        walls = set(known_walls)
        walls.update(name for name, p in unknown if rng.random() < p)
        partner_next = grid.transitions(walls)
        treasure = grid.index_of(rng.choices(candidates, weights)[0])
        worlds.append(World(partner_next, treasure, cost_to_go(grid, ego_next, partner_next, treasure)))
    return worlds
