"""Reads and plays Gnomes at Night through the page, as a person who sees only their own side: where the token is
(from the maze's label), whose turn it is, and the move such a person makes towards a treasure."""

from __future__ import annotations

import re
from collections import deque

from gameplay.engines.gnomes.maze import ACTIONS, Maze, neighbour

TOKEN = re.compile(r"Token at column (\d+), row (\d+)")


def token_on(page) -> tuple[int, int]:
    label = page.locator("#board svg.maze").get_attribute("aria-label")
    col, row = TOKEN.search(label).groups()
    return int(col) - 1, int(row) - 1


def turn_on(page) -> int:
    return int(page.locator("#board .gnomes-turn").get_attribute("data-turn"))


def my_next_move(maze: Maze, start, goal) -> str:
    """What a person who sees only their own side plays: the first move of a shortest path to the
    treasure when they move through their own walls and assume their partner can move anywhere
    ("stay" when the path needs the partner to cross a wall first)."""
    origin = (start, 0)  # 0: my move next, 1: my partner's
    first = {origin: None}
    queue = deque([origin])
    while queue:
        cell, who = queue.popleft()
        if cell == goal:
            return first[(cell, who)]
        for action in ACTIONS:
            if who == 1 or maze.can_move(cell, action):
                nxt = (neighbour(cell, action), 1 - who)
                if maze.on_grid(nxt[0]) and nxt not in first:
                    first[nxt] = first[(cell, who)] or action
                    queue.append(nxt)
    raise AssertionError("the treasure is unreachable even with an unrestricted partner")
