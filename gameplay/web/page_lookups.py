"""The two lookups the match pages start from, each refusing a browser that may not have what it asks for: the
seat of a link (held_seat: 404 for an unknown link, 403 for a seat another browser holds) and a match to look at
(viewable_match: 404 for a private match this browser may not see, as access.can_view_match decides).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from gameplay.models import Match, Seat
from gameplay.reads import selectors
from gameplay.web.access import can_view_match
from gameplay.writes import seat_claims


def held_seat(request, token: str) -> Seat:
    """The seat of a link, if this browser may use it: 404 for unknown links, 403 for a seat another browser holds
    (an accepted invite, or the host's seat of a match made in another browser)."""
    seat = selectors.seat_by_token(token)
    if seat is None:
        raise Http404("This link is not valid.")
    if not seat_claims.browser_may_use(request, seat):
        raise PermissionDenied("This seat is taken: it is held by the browser that joined with its invite link.")
    return seat


def viewable_match(request, match_id: int) -> Match:
    """The match, or 404 when it is private and this browser is neither staff nor one of its participants
    (404, not 403: a private match's existence is not announced)."""
    match = get_object_or_404(Match, pk=match_id)
    if not can_view_match(request, match):
        raise Http404("No such match.")
    return match
