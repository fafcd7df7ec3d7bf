"""The replay pages of an ended match: the public one (staff may add ``?seat=N`` to see a seat's own view) and a
player's own, reached by the seat's link; stepping through them with htmx redraws one frame. Thin: frames are read
through selectors, the board through the rendering helpers.
"""

from __future__ import annotations

from django.http import HttpResponseForbidden
from django.shortcuts import render
from django.views.decorators.http import require_GET

from gameplay.models import Match, Seat
from gameplay.reads import selectors
from gameplay.web.page_lookups import held_seat, viewable_match
from gameplay.web.rendering import board_context, board_extras, board_image_url


def replay(request, match_id: int):
    """The public replay of an ended match; staff may add ``?seat=N`` to see seat N's own view at every step
    (its hidden information included: a researcher reviewing what a participant saw)."""
    match = viewable_match(request, match_id)
    seats = {s.index: s for s in match.seats.all()}
    return _replay(request, match, seats, _replay_viewer(request, seats))


@require_GET
def seat_replay(request, token: str):
    """A player's own replay: the ended match as their seat saw it at every step, their hidden information
    included and nobody else's. The seat's link is the credential, as for the match page (and only in the browser
    that holds the seat, when it was claimed)."""
    seat = held_seat(request, token)
    match = seat.match
    seats = {s.index: s for s in match.seats.all()}
    return _replay(request, match, seats, seat.index, own_seat=seat)


def _replay(request, match: Match, seats: dict, viewer: int | None, own_seat: Seat | None = None):
    if match.status == Match.Status.ACTIVE:
        # Action labels of a running hidden-information game could reveal secrets; replay once it is over.
        return HttpResponseForbidden("The replay opens when the match has ended.")
    frames = selectors.replay_frames(match, viewer)
    try:
        step = min(max(int(request.GET.get("step", len(frames) - 1)), 0), len(frames) - 1)
    except ValueError:
        step = len(frames) - 1
    frame = frames[step]
    context = {
        "match": match,
        "frames": frames,
        "frame": frame,
        "step": step,
        "last_step": len(frames) - 1,
        "obs": frame.observation.data,
        "clicks": {},
        "seats": seats,
        "viewer": viewer,
        # Kept on every step link, so stepping stays in the seat's view.
        "seat_query": f"&seat={viewer}" if viewer is not None and own_seat is None else "",
        "staff": request.user.is_staff and own_seat is None,
        "own_seat": own_seat,
        "result": selectors.public_result(match),
        # Every action as a step to jump to: (step, event).
        "moves": [(n, f.event) for n, f in enumerate(frames) if f.event is not None and f.event.kind == "action"],
        # Agent moves that asked a model record how many calls they made; the transcripts themselves are
        # agents_app's pages (the template links and loads them by URL name only).
        "has_transcripts": any(f.event is not None and f.event.payload.get("model_calls") for f in frames),
        # The picture of a step is the public one; a seat's view is drawn from its observation (board templates).
        **board_context(frame.view),
        **board_extras(selectors.game_of(match), frame.view,
                       board_image_url(match, None, step=_public_step(frames, step))),
    }
    template = "gameplay/partials/replay_frame.html" if request.headers.get("HX-Request") else "gameplay/replay.html"
    return render(request, template, context)


def _public_step(frames: list, step: int) -> int:
    """The public replay's step showing the same position as step ``step`` of a seat's replay, whose steps may include
    its team's chat lines (which the public replay has no step for): the picture URL counts public steps."""
    return sum(1 for f in frames[1:step + 1] if selectors.readable_by(f.event.payload, None))


def _replay_viewer(request, seats: dict) -> int | None:
    """The seat whose view a replay shows: ``?seat=N`` for staff only (everyone else, and a seat that does not
    exist, gets the public view)."""
    if not request.user.is_staff:
        return None
    try:
        seat = int(request.GET.get("seat", ""))
    except ValueError:
        return None
    return seat if seat in seats else None
