"""Renders one seat's view as HTML: the whole match page body, or out-of-band fragments for the websocket."""

from __future__ import annotations

from collections.abc import Sequence

from django.template.loader import render_to_string
from django.urls import reverse

from gameplay.boards import presenter_for
from gameplay.engines.api import Game
from gameplay.engines.seat_view import SeatView as EngineSeatView
from gameplay.models import Match, Seat
from gameplay.reads.selectors import ChatLine, ChatPage, SeatView
from gameplay.web.board_clicks import clicks_for, valid_selection
from gameplay.web.presence import AGENT, SeatPresence


def view_context(view: SeatView, selection: Sequence[str] = ()) -> dict:
    selection = valid_selection(view.legal_actions, selection)
    clicks = clicks_for(view.legal_actions, selection)
    return {
        "view": view,
        "obs": view.observation.data,
        "clicks": clicks,
        # Where a new selection may start (the same as clicks when nothing is selected).
        "start_clicks": clicks_for(view.legal_actions, ()) if selection else clicks,
        "selection": selection,
        "version": view.match.version,
        **board_extras(view.game, view.seat_view, board_image_url(view.match, view.seat)),
        **board_context(view.seat_view),
    }


def board_context(seat_view) -> dict:
    """The game's board presenter and what it makes of this seat view: ``board`` (its own context)."""
    presenter = presenter_for(seat_view.game_id)
    return {"presenter": presenter, "board": presenter.context(seat_view)}


def board_image_url(match: Match, seat: Seat | None, step: int | None = None) -> str:
    """The board picture of this seat's observation (or the public one), tied to the match version."""
    if seat is not None:
        return reverse("board_png", kwargs={"token": seat.token}) + f"?v={match.version}"
    url = reverse("match_board_png", kwargs={"match_id": match.pk})
    return url + (f"?step={step}" if step is not None else f"?v={match.version}")


def board_extras(game: Game, seat_view: EngineSeatView, image_url: str) -> dict:
    """The board's page geometry and picture: ``layout``, the presenter's ``layout(seat_view)`` (None for a board
    that needs none); ``board_image_url`` only for a game whose engine draws pictures (``spec.has_image``)."""
    return {
        "layout": presenter_for(seat_view.game_id).layout(seat_view),
        "board_image_url": image_url if game.spec.has_image else None,
    }


def seat_fragments(view: SeatView, selection: Sequence[str] = (), *, chat_full: bool = True) -> str:
    """Every live region of the match page, each marked for an htmx out-of-band swap; the chat log only with
    ``chat_full`` (a socket's first frame): afterwards a socket appends new lines (``chat_append_fragment``)."""
    context = {**view_context(view, selection), "oob": True, "chat_full": chat_full}
    return render_to_string("gameplay/partials/seat_view.html", context)


def chat_log_fragment(page: ChatPage) -> str:
    """The whole chat log (its newest lines), replacing the one on the page."""
    context = {"oob": True, "chat_lines": page.lines, "chat_more": page.more}
    return render_to_string("gameplay/partials/chat_log.html", context)


def chat_append_fragment(lines: Sequence[ChatLine]) -> str:
    """Chat lines to add at the end of the log on the page: the size of the new lines, not of the history."""
    return render_to_string("gameplay/partials/chat_append.html", {"lines": lines})


def error_fragment(message: str) -> str:
    return render_to_string("gameplay/partials/flash.html", {"message": message, "oob": True})


def presence_fragment(presence: Sequence[SeatPresence], own_seat: int | None) -> str:
    """Who else is at the table (the people; agents always are), replacing the list on the page."""
    people = [p for p in presence if p.index != own_seat and p.state != AGENT]
    return render_to_string("gameplay/partials/presence.html", {"people": people})
