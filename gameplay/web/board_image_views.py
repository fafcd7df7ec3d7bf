"""Board pictures (Game.observation_image) as PNG responses: a seat's own view by its link, and a match's public
view or a replay step's. Each picture is cached per match version, seat, coordinates and step, and its URL names
the version or step it shows, so browsers may keep it.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseForbidden

from gameplay.boards import presenter_for
from gameplay.models import Match
from gameplay.reads import selectors
from gameplay.web.page_lookups import held_seat, viewable_match

# Seconds a board picture of one match version stays in Django's cache (and in browsers, for that version).
BOARD_IMAGE_SECONDS = 3600


def board_png(request, token: str):
    """The picture of this seat's own observation (Game.observation_image); 404 for unknown links."""
    seat = held_seat(request, token)
    return _board_image(request, seat.match, seat.index)


def match_board_png(request, match_id: int):
    """The public picture (observation(None)); with ?step=N, a replay step of a finished match."""
    match = viewable_match(request, match_id)
    step = request.GET.get("step")
    if step is None:
        return _board_image(request, match, None)
    if match.status == Match.Status.ACTIVE:
        return HttpResponseForbidden("The replay opens when the match has ended.")
    try:
        step = int(step)
    except ValueError:
        raise Http404("No such step") from None
    return _board_image(request, match, None, step=step)


def _board_image(request, match: Match, seat_index: int | None, step: int | None = None) -> HttpResponse:
    game = selectors.game_of(match)
    if not game.spec.has_image:
        raise Http404("This game has no board picture.")
    coords = request.GET.get("coords", "").lower() in ("1", "true", "yes", "on") and _takes_coords(game)
    key = f"board-png:{match.pk}:{match.version}:{seat_index}:{int(coords)}:{step}"
    png = cache.get(key)
    if png is None:
        if step is None:
            observation = selectors.state_of(match).observation(seat_index)
        else:
            frames = selectors.replay_frames(match)
            if not 0 <= step < len(frames):
                raise Http404("No such step")
            observation = frames[step].observation
        png = game.observation_image(observation, coords=coords)
        if png is None:
            raise Http404("This game has no board picture.")
        cache.set(key, png, BOARD_IMAGE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    # The URL names the version (?v=) or replay step it shows: then the bytes never change.
    scope = "private" if seat_index is not None else "public"
    if step is not None or request.GET.get("v") == str(match.version):
        response["Cache-Control"] = f"{scope}, max-age={BOARD_IMAGE_SECONDS}"
    else:
        response["Cache-Control"] = f"{scope}, no-cache"
    return response


def _takes_coords(game) -> bool:
    """Whether the game's board offers its picture's cell labels (its presenter's ``image_coords``): only then is
    ``coords=1`` passed on to observation_image (and a separate picture cached)."""
    return presenter_for(game.spec.id).image_coords
