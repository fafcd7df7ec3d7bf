"""The lobby: the games to start, the open games to join, and the recent matches.

Open games (issue 39, point 3) are listed by their hosts from the new-match form; the list redraws itself every few
seconds (htmx polls ``open_games_fragment``, a read), and "Join" is a POST that takes a free seat for this browser.
The browser's session remembers the seat it holds in each listed match, so a second click on "Join" (or the host
clicking its own game) opens that seat again instead of taking another one.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from gameplay.engines.registry import all_specs
from gameplay.reads import selectors
from gameplay.reads.open_games import open_games
from gameplay.web.access import is_staff
from gameplay.web.rate_limits import limited_per_client
from gameplay.web.rules_pages import games_with_rules
from gameplay.writes import open_seats, seat_claims

SESSION_KEY = "lobby_seats"  # {match id: seat token} of the listed matches this browser holds a seat in
REMEMBERED_MATCHES = 50  # a session keeps the newest ones


def remember_seat(request, match_id: int, token: str) -> None:
    seats = dict(request.session.get(SESSION_KEY, {}))
    seats[str(match_id)] = token
    request.session[SESSION_KEY] = dict(list(seats.items())[-REMEMBERED_MATCHES:])


def remembered_seats(request) -> dict[int, str]:
    return {int(match_id): token for match_id, token in request.session.get(SESSION_KEY, {}).items()}


def _open_games_context(request) -> dict:
    return {"open_games": open_games(), "my_seats": remembered_seats(request)}


@require_GET
def lobby(request):
    matches = selectors.recent_matches(10, include_private=is_staff(request))
    specs = all_specs()
    context = {"games": specs, "matches": matches, "with_rules": games_with_rules(specs)}
    return render(request, "gameplay/lobby.html", context | _open_games_context(request))


@require_GET
def open_games_fragment(request):
    """The open games alone, for the lobby's periodic refresh."""
    return render(request, "gameplay/partials/open_games.html", _open_games_context(request))


@require_POST
@limited_per_client(
    "INVITES_TAKEN_PER_MINUTE_PER_CLIENT",
    "invite-take",
    "Many seats were taken from your address in the last minute, so this one was not taken yet.",
)
def join_open_game(request, match_id: int):
    held = remembered_seats(request).get(match_id)
    if held is not None:
        return redirect("play", token=held)
    taken = open_seats.join(match_id)
    if taken is None:
        context = {"match_id": match_id, **_open_games_context(request)}
        return render(request, "gameplay/open_game_gone.html", context, status=410)
    remember_seat(request, match_id, taken.seat.token)
    return seat_claims.hand_over(redirect("play", token=taken.seat.token), taken)
