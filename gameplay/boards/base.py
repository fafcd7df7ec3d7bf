"""What a board presenter is: everything a page needs to show one game's board for one seat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameplay.engines.seat_view import SeatView

# The board of a game without a presenter of its own: the viewer's observation text and the open list of actions.
GENERIC_TEMPLATE = "games/generic_board.html"


class BoardPresenter:
    """One game's board on a page. Subclasses set the class attributes and override ``context``/``layout``.

    - ``template``: the board fragment, re-rendered (and swapped over the websocket) after every change.
    - ``css``/``js``: static assets the page loads once in its head, never inside the swapped fragment, so a
      script runs once per page and binds with delegated listeners.
    - ``live_template``: the stage of a realtime game played live (never swapped by the socket); "" for none.
    - ``image_coords``: the game's picture can label its cells (the board PNG's ``?coords=1``).
    - ``rules_template``: the game's rules for people (``games/<id>/rules.html``), shown whole on its rules page and
      in brief in the help panel of its match pages; "" for none.

    A board that words the game's result itself (beside the page's status line) marks that element
    ``data-board-result``: tests/gameplay/endings reads who it says won (or that it is a draw) at every way the game
    ends and requires the status line's answer.
    """

    template: str = GENERIC_TEMPLATE
    rules_template: str = ""
    css: tuple[str, ...] = ()
    js: tuple[str, ...] = ()
    live_template: str = ""
    image_coords: bool = False

    @property
    def generic(self) -> bool:
        """No board of its own: the page shows the observation text and the open list of actions."""
        return self.template == GENERIC_TEMPLATE

    def layout(self, view: SeatView) -> Mapping[str, Any] | None:
        """Page geometry of this view's board (cells, stacks, an image's overlay); None when the template needs none."""
        return None

    def context(self, view: SeatView) -> dict[str, Any]:
        """The board's own template context, built from the view's facts and actions only (as ``board``)."""
        return {}


class GenericPresenter(BoardPresenter):
    """A game without a board of its own."""
