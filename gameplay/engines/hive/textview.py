"""Plain-text picture of a Hive observation, for text-only agents (built from the data alone)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core import BUG_NAMES, COLOUR_NAMES

NEIGHBOURS = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
UNIT = 3  # characters per half cell: cells in one row are 6 characters apart


def board_lines(pieces: list[Mapping[str, Any]]) -> list[str]:
    """Rows of hexes: a row is drawn half a cell to the right of the row above it."""
    if not pieces:
        return ["(the board is empty)"]
    tops: dict[tuple[int, int], Mapping[str, Any]] = {}
    for p in pieces:
        if p["top"]:
            tops[(p["q"], p["r"])] = p
    cells = set(tops)
    for q, r in tops:
        cells.update((q + dq, r + dr) for dq, dr in NEIGHBOURS)
    min_x = min(2 * q + r for q, r in cells)
    rows: dict[int, list[tuple[int, str]]] = {}
    for q, r in cells:
        top = tops.get((q, r))
        token = "." if top is None else top["id"] + (f"+{top['height']}" if top["height"] else "")
        rows.setdefault(r, []).append(((2 * q + r - min_x) * UNIT, token))
    lines = []
    for r in sorted(rows):
        line = ""
        for col, token in sorted(rows[r]):
            line = line.ljust(col) + token
        lines.append(f"r={r:>3} | {line.rstrip()}")
    return lines


def render_text(data: Mapping[str, Any], seat_names: tuple[str, str] = ("White", "Black"),
                board: list[str] | None = None) -> str:
    """The whole text view; ``board`` may pass ``board_lines(data["pieces"])`` computed earlier."""
    seat = data["you"]
    lines = []
    if seat is None:
        lines.append("You are watching a game of Hive.")
    else:
        lines.append(f"You play {seat_names[seat]} (seat {seat}); your pieces start with '{'wb'[seat]}'.")
    lines.append(
        "Board: pointy-top hexes in axial coordinates (q, r). Each row is shifted half a cell right of "
        "the row above; a cell touches its left and right cells and two cells in each adjacent row. "
        "'.' = empty cell next to the hive; 'X+n' = piece X on top of a stack with n pieces beneath."
    )
    lines.extend(board if board is not None else board_lines(data["pieces"]))
    stacks = {}
    for p in sorted(data["pieces"], key=lambda p: (p["r"], p["q"], p["height"])):
        stacks.setdefault((p["q"], p["r"]), []).append(p["id"])
    ordered = sorted(stacks.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    placed = ", ".join(f"{'/'.join(ids)} ({q},{r})" for (q, r), ids in ordered)
    lines.append(f"Pieces (q,r; stacks bottom/top): {placed or 'none'}")
    for colour in ("w", "b"):
        hand = ", ".join(f"{BUG_NAMES[bug]} x{n}" for bug, n in data["hands"][colour] if n)
        lines.append(f"{COLOUR_NAMES[colour]} in hand: {hand or 'nothing'}")
    if data["last_move"]:
        lines.append(f"Last move: {data['last_move']}")
    if data["pinned"]:
        lines.append(f"Cannot move or be moved this turn (moved last turn): {', '.join(data['pinned'])}")
    if data["result"]:
        lines.append(f"Game over: {data['result']}")
    else:
        colour = "White" if data["to_move"] == 0 else "Black"
        whose = "your move" if seat == data["to_move"] else f"{seat_names[data['to_move']]} to move"
        lines.append(f"Turn: {colour}[{data['turn']}], {whose}.")
    lines.append(f"UHP game string: {data['game_string']}")
    return "\n".join(lines)
