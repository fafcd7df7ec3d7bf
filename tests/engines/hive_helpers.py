"""Shared helpers for the Hive engine tests: build positions from UHP moves and read legal moves."""

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
