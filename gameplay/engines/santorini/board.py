"""The Santorini board: its 25 cells, their names ("a1".."e5"), each cell's neighbours, the dome's level and the
workers' letters.

The board is 25 cells indexed ``(row - 1) * 5 + column`` so that ``a1`` is 0 and ``e5`` is 24; neighbour lists are
precomputed once because move generation is the hot path of every random playout and of every ``apply_action`` check.
"""

from __future__ import annotations

SIZE = 5
DOME = 4
COLUMNS = "abcde"
NAMES = [f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE)]
INDEX = {name: i for i, name in enumerate(NAMES)}
WORKER_IDS = ("A", "B")


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    return tuple(
        (r + dr) * SIZE + (c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


NEIGHBOURS = [_neighbours(i) for i in range(SIZE * SIZE)]
