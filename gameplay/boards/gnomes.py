"""Gnomes at Night's board presenter: the geometry for drawing one seat's side of the maze (an SVG in the page),
from its seat view's facts only (its own walls, the token, the treasure only when this side sees it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.gnomes.maze import parse_wall
from gameplay.engines.seat_view import SeatView

# The move pad: action id, accessible label, keys that press it (see static/js/keys.js), grid area.
PAD = (
    ("up", "Move up", "ArrowUp w", "up"),
    ("left", "Move left", "ArrowLeft a", "left"),
    ("stay", "Stay where you are", ".", "stay"),
    ("right", "Move right", "ArrowRight d", "right"),
    ("down", "Move down", "ArrowDown s", "down"),
)
MARGIN = 0.15  # room around the maze so the outer walls are not clipped
# Room above and left of the maze for the column and row numbers: the agent and the tips say "column 7, row 3".
LABELS = 0.6


# Unit steps on the page (y grows downwards: row 1 is the top), for drawing an attempted move.
STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def last_move_marks(data: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each seat's newest move, for marking on the maze: an arrow for a move made, an arrow stopped by a bar for
    a move a wall blocked, a ring for staying put. From the observation's history only, so a mark says no more than
    the viewer may know: a partner's move that left the token where it was has no direction there (option
    partner_attempts off) and is drawn as a ring."""
    history = data.get("history") or ()
    newest = history[-1]["turn"] if history else None
    viewer = data.get("side")
    marks = []
    for seat in range(len(names)):
        move = next((m for m in reversed(history) if m["seat"] == seat), None)
        if move is None:
            continue
        x, y = move["from"][0] + 0.5, move["from"][1] + 0.5
        action = move["action"]
        who, whose = (
            ("You", "your") if seat == viewer
            else ("Your partner", "their") if viewer is not None
            else (names[seat], f"{names[seat]}'s")
        )
        if action is None:  # someone else's move that left the token where it was: stay or wall, unknown
            kind, words = "stayed", "did not move the token"
        elif action == "stay":
            kind, words = "stayed", "stayed put"
        elif move["moved"]:
            kind, words = "moved", f"moved {action}"
        else:
            kind, words = "blocked", f"tried to move {action}, but a wall on {whose} side blocked it"
        mark: dict[str, Any] = {"seat": seat, "kind": kind, "newest": move["turn"] == newest, "x": x, "y": y,
                                "text": f"{who} {words}."}
        if kind != "stayed":
            dx, dy = STEPS[action]
            reach = 0.7 if kind == "moved" else 0.42  # up to the next cell's token; a blocked one to the wall
            tip = (x + dx * reach, y + dy * reach)
            back = (tip[0] - dx * 0.22, tip[1] - dy * 0.22)
            # The shaft stops at the head's base; the head is a triangle; a blocked move ends in a bar.
            mark["shaft"] = (x + dx * 0.12, y + dy * 0.12, back[0], back[1])
            corners = (tip, (back[0] - dy * 0.14, back[1] + dx * 0.14), (back[0] + dy * 0.14, back[1] - dx * 0.14))
            mark["head"] = " ".join(f"{px:.2f},{py:.2f}" for px, py in corners)
            if kind == "blocked":
                edge = (x + dx * 0.5, y + dy * 0.5)
                mark["bar"] = (edge[0] - dy * 0.3, edge[1] - dx * 0.3, edge[0] + dy * 0.3, edge[1] + dx * 0.3)
        marks.append(mark)
    return sorted(marks, key=lambda m: not m["newest"])  # the newest first, as it is read


def layout_of(data: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Line segments of this side's walls, the grid lines, the token, the treasure if the seat sees it."""
    size = int(data["size"])
    walls = []
    for name in data.get("walls") or ():
        (x, y), edge = parse_wall(name)  # the engine's own wall names, read by the engine's own function
        walls.append((x + 1, y, x + 1, y + 1) if edge == "right" else (x, y + 1, x + 1, y + 1))
    visited = {tuple(move["to"]) for move in data.get("history") or ()} | {tuple(data["start"])}
    token = data["token"]
    treasure = data.get("treasure")
    return {
        "size": size,
        "viewbox": f"{-LABELS} {-LABELS} {size + LABELS + MARGIN} {size + LABELS + MARGIN}",
        # (centre, number) of every column along the top and every row down the left, 1-based as in the labels.
        "coords": [(i + 0.5, i + 1) for i in range(size)],
        "coord_offset": -LABELS / 2,
        "pad": PAD,
        "walls": walls,
        "grid": list(range(1, size)),
        "visited": sorted((x + 0.5, y + 0.5) for x, y in visited if [x, y] != token),
        "token": (token[0] + 0.5, token[1] + 0.5),
        "treasure": (treasure[0] + 0.5, treasure[1] + 0.5) if treasure else None,
        # Human-facing coordinates are 1-based: column 1 is the left edge, row 1 the top.
        "token_label": f"column {token[0] + 1}, row {token[1] + 1}",
        "treasure_label": f"column {treasure[0] + 1}, row {treasure[1] + 1}" if treasure else "",
        "last_moves": last_move_marks(data, names),
    }


class GnomesBoard(BoardPresenter):
    template = "games/gnomes/board.html"
    rules_template = "games/gnomes/rules.html"

    def layout(self, view: SeatView) -> dict[str, Any]:
        return layout_of(view.facts, view.seat_names)
