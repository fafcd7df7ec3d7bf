"""Shared helpers for the Hive engine tests: build positions from UHP moves and read legal moves; known positions,
and the moves of games that end with a queen surrounded."""

from __future__ import annotations

from gameplay.engines.hive import HiveState, load_game_string


def position(moves: list[str], game_type: str = "Base", **options) -> HiveState:
    """Replay UHP moves (any valid reference) from the start of a game of ``game_type``."""
    return load_game_string(f"{game_type};InProgress;White[1];" + ";".join(moves), options)


def cell(text: str) -> tuple[int, int]:
    q, r = text.split(",")
    return int(q), int(r)


def targets(state: HiveState, piece: str) -> set[tuple[int, int]]:
    """Destinations of every legal movement of ``piece`` (its own moves and pillbug lifts)."""
    seat = state.current_seats()[0]
    return {
        cell(a.path[1]) for a in state.legal_actions(seat)
        if a.id.split()[0] == piece and not a.path[0].startswith("hand:")
    }


def placements(state: HiveState) -> set[tuple[int, int]]:
    """Cells where the side to move may place a piece."""
    seat = state.current_seats()[0]
    return {cell(a.path[1]) for a in state.legal_actions(seat) if a.path and a.path[0].startswith("hand:")}


def where(state: HiveState, piece: str) -> tuple[int, int]:
    for p in state.observation(None).data["pieces"]:
        if p["id"] == piece:
            return p["q"], p["r"]
    raise KeyError(piece)


# A straight line west to east: wS1 (0,0), bS1 (1,0), wQ (-1,0), bQ (2,0); White to move (turn 3).
LINE = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]

# White walls in a pocket at (-1,0): wS1 (0,0), wQ (0,-1), wA1 (-1,-1), wG1 (-2,0), wG2 (-2,1). Its only
# open side is (-1,1), a gate between wG2 and wS1. Black's pieces form a line to the east.
POCKET = [
    "wS1", "bS1 wS1-", "wQ \\wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-", "wG1 /wA1", "bA2 bA1-",
    "wG2 wG1\\", "bG1 bA2-",
]
POCKET_CELL = (-1, 0)
POCKET_DOOR = (-1, 1)

# Games that end by a surrounded queen: White surrounds Black's (WIN_MOVES), Black White's on its last move
# (BLACK_WIN_MOVES), and one move surrounds both (DRAW_MOVES).
WIN_MOVES = [
    "wS1", "bG1 wS1\\", "wA1 wS1/", "bQ bG1-", "wA2 -wS1", "bG2 bG1\\", "wQ /wA2", "bB1 bQ-",
    "wA3 wA1-", "bG3 bQ\\", "wA3 wA1\\", "bA1 bG2\\",
]
# A seeded random game (seed 78 of a search) that Black wins on its 11th turn, the last move surrounding White's queen.
BLACK_WIN_MOVES = [
    "wB1", "bA1 wB1-", "wB2 /wB1", "bS1 bA1\\", "wG1 \\wB1", "bS2 bS1/", "wQ /wG1", "bQ /bS1", "wS1 -wG1",
    "bA2 bS2-", "wS2 -wS1", "bG1 bS1\\", "wA1 \\wS2", "bG2 \\bS2", "wA2 wG1/", "bA3 bA2/", "wG2 /wS2", "bA3 -wA1",
    "wG3 wS2\\", "bA3 \\bA2", "wA2 -bG2", "bA3 wG3\\",
]
DRAW_MOVES = [
    "wG1", "bB1 /wG1", "wQ wG1-", "bQ bB1\\", "wQ wG1\\", "bB2 /bQ", "wG2 wQ-", "bA1 /bB1",
    "wS1 \\wG2", "bA2 bQ\\", "wA1 \\wS1", "bS1 /bA1",
]
