"""Hive's board presenter: the board is the engine's own picture (``observation_image``, the board PNG) under an SVG
layer in the picture's pixel space. That layer draws each piece on top of the PNG's (the same tile, with a picture of
its bug instead of a letter: templates/games/hive/bug_sprite.html) and holds one clickable hexagon per cell, so its
geometry must be the picture's, pixel for pixel. The PNG itself keeps its letters: it is also what image-reading
agents are shown, and they read letters better than drawings."""

from __future__ import annotations

from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.hive.picture_layout import BUG_NAMES, NEIGHBOURS, observation_layout
from gameplay.engines.seat_view import SeatView

# Bugs in the order people learn them (the rules page's), for the legend under the board.
BUG_ORDER = ("Q", "B", "G", "S", "A", "M", "L", "P")


class HiveBoard(BoardPresenter):
    template = "games/hive/board.html"
    rules_template = "games/hive/rules.html"
    image_coords = True  # the picture can label its cells (board.png?coords=1, the page's "Show coordinates")

    def layout(self, view: SeatView) -> dict[str, Any]:
        # Not a geometry of the page's own: the overlay lies on the PNG the engine draws, so it takes the engine's
        # pure geometry of that picture (picture_layout.layout, the same code render_png draws with). A copy here would
        # drift from the picture the first time either changed.
        geometry = observation_layout(view.facts)
        return {**geometry, "pieces": drawn_pieces(geometry), "marks": marks(geometry, view.facts),
                "legend": legend(view.facts)}


def drawn_pieces(geometry: dict[str, Any]) -> list[dict[str, Any]]:
    """The top piece of every occupied cell, as the overlay draws it over the PNG's: where (the cell's centre, in the
    picture's pixels, and its hexagon radius, which scales the unit-sized drawing), whose (``color`` "w"/"b"), which
    bug and number ("B", "1"), the stack under it ("on bS1", as the PNG writes it, with the height) and the cell's
    spoken label."""
    pieces = []
    for cell in geometry["cells"]:
        if not cell["occupied"]:
            continue
        top = str(cell["top"])
        under = cell["pieces"][:-1]
        # The stack's pill, centred, a little wider than the PNG's (DejaVu Sans Bold at 0.24 of the radius, ~0.7 em a
        # character, plus the rounded ends), so that the PNG's pill never shows around the edges of this one.
        pill = round(0.24 * 0.72 * (3 + len(",".join(under))) + 0.26, 3)
        pieces.append({
            "cell": cell["name"], "x": cell["x"], "y": cell["y"], "radius": geometry["radius"],
            "color": top[:1], "bug": top[1:2], "number": top[2:], "height": cell["height"],
            # The PNG's note: the pieces underneath, top first, on a pill of the colour of the piece just below (this
            # drawing covers the PNG's, so it is drawn again).
            "under": "on " + ",".join(reversed(under)) if under else "",
            "under_color": under[-1][:1] if under else "",
            "under_width": pill,
            "under_x": round(-pill / 2, 3),
            "label": cell["label"],
        })
    return pieces


def marks(geometry: dict[str, Any], facts: dict[str, Any]) -> list[dict[str, Any]]:
    """The outlines the PNG draws over its pieces, drawn again over the overlay's: the last move's source ("from",
    dashed) and destination ("to"), and a queen surrounded on all six sides ("surrounded")."""
    cells = {(c["q"], c["r"]): c for c in geometry["cells"]}
    found = []
    for kind, key in (("from", "last_from"), ("to", "last_to")):
        point = facts.get(key)
        cell = cells.get((int(point[0]), int(point[1]))) if point is not None else None
        if cell is not None:
            found.append({"kind": kind, "x": cell["x"], "y": cell["y"], "radius": geometry["radius"]})
    occupied = {q_r for q_r, c in cells.items() if c["occupied"]}
    for (q, r), cell in cells.items():
        queen = any(str(piece)[1:2] == "Q" for piece in cell["pieces"])
        if queen and all((q + dq, r + dr) in occupied for dq, dr in NEIGHBOURS):
            found.append({"kind": "surrounded", "x": cell["x"], "y": cell["y"], "radius": geometry["radius"]})
    return found


def legend(facts: dict[str, Any]) -> list[dict[str, str]]:
    """The bugs this match plays with (the base game's, without Beetles in GameBench's variant, and the expansions
    it adds), each with its name, for the legend of pictures under the board."""
    bugs = {bug for hand in (facts.get("hands") or {}).values() for bug, _ in hand}
    bugs |= {str(p.get("bug")) for p in facts.get("pieces") or ()}
    bugs |= set(str(facts.get("expansions") or ""))
    return [{"bug": bug, "name": BUG_NAMES[bug]} for bug in BUG_ORDER if bug in bugs]

