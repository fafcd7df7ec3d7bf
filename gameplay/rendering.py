"""Renders one seat's view as HTML: the whole match page body, or out-of-band fragments for the websocket."""

from __future__ import annotations

from collections.abc import Sequence

from django.template.loader import render_to_string

from gameplay.board_clicks import clicks_for, valid_selection
from gameplay.selectors import SeatView


def view_context(view: SeatView, selection: Sequence[str] = ()) -> dict:
    selection = valid_selection(view.legal_actions, selection)
    return {
        "view": view,
        "obs": view.observation.data,
        "clicks": clicks_for(view.legal_actions, selection),
        "selection": selection,
        "version": view.match.version,
    }


def seat_fragments(view: SeatView, selection: Sequence[str] = ()) -> str:
    """Every live region of the match page, each marked for an htmx out-of-band swap."""
    return render_to_string("gameplay/partials/seat_view.html", {**view_context(view, selection), "oob": True})


def error_fragment(message: str) -> str:
    return render_to_string("gameplay/partials/flash.html", {"message": message, "oob": True})
