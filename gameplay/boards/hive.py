"""Hive's board presenter: the board is the engine's own picture (``observation_image``, the board PNG) under a
clickable overlay of one hexagon per cell, so the overlay's geometry must be the picture's, pixel for pixel."""

from __future__ import annotations

from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.hive.render import observation_layout
from gameplay.engines.seat_view import SeatView


class HiveBoard(BoardPresenter):
    template = "games/hive/board.html"
    rules_template = "games/hive/rules.html"
    image_coords = True  # the picture can label its cells (board.png?coords=1, the page's "Show coordinates")

    def layout(self, view: SeatView) -> dict[str, Any]:
        # Not a geometry of the page's own: the overlay lies on the PNG the engine draws, so it takes the engine's
        # pure geometry of that picture (render.layout, the same code render_png draws with). A copy here would
        # drift from the picture the first time either changed.
        return observation_layout(view.facts)
