"""Perft: count the leaf nodes of the move tree to a given depth (move-generation check).

Conventions as in the Mzinga reference tables: identical bugs in hand are one placement (our
placements always use the lowest-numbered piece), a pass counts as a move, a finished game has no
moves. Play/undo is incremental on a private copy of the position; the state is left untouched.
"""

from __future__ import annotations

from collections.abc import Iterator

from .core import Position
from .game import HiveState
from .uhp import move_string


def _count(pos: Position, depth: int) -> int:
    moves = pos.moves()
    if depth == 1:
        return len(moves)
    total = 0
    play, undo = pos.play, pos.undo
    for move in moves:
        play(move)
        total += _count(pos, depth - 1)
        undo()
    return total


def perft_position(pos: Position, depth: int) -> int:
    if depth <= 0:
        return 1
    return _count(pos, depth)


def perft(state: HiveState, depth: int) -> int:
    """Leaf nodes at ``depth`` plies below ``state``."""
    return perft_position(state.pos.copy(), depth)


def divide(state: HiveState, depth: int) -> Iterator[tuple[str, int]]:
    """(canonical UHP move, leaf count below it) for each root move, for progress output."""
    pos = state.pos.copy()
    for move in pos.moves():
        name = move_string(pos, move)
        pos.play(move)
        count = perft_position(pos, depth - 1)
        pos.undo()
        yield name, count
