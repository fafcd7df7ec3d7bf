"""Single-use invites and seats held by one browser (issue 13, Why 9: "invite links are permanent bearer links").

A match started from the new-match form gets a ``SeatClaim`` per human seat. The host's is claimed at once by the
browser that made the match; each other one is an invite link (``/invite/<claim token>/``) that the first browser
to accept it (a POST) claims, before ``INVITE_TTL_HOURS`` run out. Claiming sets a signed cookie scoped to that
seat's pages (``/play/<seat token>/``), and those pages answer only a browser that holds it: a second claimant
sees "this seat is taken", and a seat link copied to another browser opens nothing.

A match made with ``wait_for_players`` starts when its last invite is taken (``claim``): until then nobody moves.

Writes: ``create_claims``, ``claim``, ``hand_over``. Reads: ``invite_by_token``, ``invite_status``,
``browser_may_use`` / ``cookies_hold`` (pages / websocket handshakes), ``open_invites``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from gameplay.models import Match, Seat, SeatClaim
from gameplay.writes.announce import notify_match_changed, schedule_agent_turns
from gameplay.writes.text_input import clean_token

COOKIE_SALT = "gameplay.seat-claim"
COOKIE_MAX_AGE = 30 * 24 * 3600  # a match left open for weeks stays playable in its browser


# --- writes --------------------------------------------------------------------------------------------------


def create_claims(match: Match, host_seat: int | None) -> list[SeatClaim]:
    """A claim for every human seat of a new match; the host's is claimed now (by the caller's browser)."""
    now = timezone.now()
    return [
        SeatClaim.objects.create(seat=seat, claimed_at=now if seat.index == host_seat else None)
        for seat in match.seats.filter(controller=Seat.Controller.HUMAN).order_by("index")
    ]


def carry_claims(previous: Match, following: Match, moved=None) -> None:
    """The next round of a chain is held by the same browsers as the round before (issue 37, point 4): each human
    seat whose seat in ``previous`` had a claim gets one, claimed already, for the browser that holds the previous
    seat to take over through the next-round POST (``hand_over``). Seats of a round without claims stay without.
    ``moved``: the seat index in ``following`` of each seat index of ``previous`` (a rematch swaps sides)."""
    held = set(SeatClaim.objects.filter(seat__match=previous).values_list("seat__index", flat=True))
    if moved is not None:
        held = {moved(index) for index in held}
    now = timezone.now()
    for seat in following.seats.filter(controller=Seat.Controller.HUMAN, index__in=held):
        SeatClaim.objects.get_or_create(seat=seat, defaults={"claimed_at": now})


def bind_seats(match: Match, indices) -> None:
    """These human seats are held already, by browsers the caller knows (a study's participants, bound to their
    browsers by the study session): their pages and sockets answer only a browser that received the seat's cookie
    (``hand_over``), never the seat link alone."""
    now = timezone.now()
    for seat in match.seats.filter(controller=Seat.Controller.HUMAN, index__in=list(indices)):
        SeatClaim.objects.get_or_create(seat=seat, defaults={"claimed_at": now})


def claim_of(seat: Seat) -> SeatClaim | None:
    return SeatClaim.objects.filter(seat=seat).first()


def claim(token: str) -> SeatClaim | None:
    """Claim an open invite for the calling browser; None when it is unknown, taken, expired or its match over.

    One conditional UPDATE decides between two browsers claiming at once: exactly one of them gets the seat.
    """
    with transaction.atomic():
        found = invite_by_token(token)
        if found is None or invite_status(found) != "open":
            return None
        taken = SeatClaim.objects.filter(pk=found.pk, claimed_at__isnull=True).update(claimed_at=timezone.now())
        everyone_here = taken and _start_when_everyone_joined(found.seat.match_id)
    if not taken:
        return None
    found.refresh_from_db(fields=["claimed_at"])
    if everyone_here:
        match = Match.objects.get(pk=found.seat.match_id)
        notify_match_changed(match)  # every page redraws: "Your turn" instead of "waiting for ..."
        schedule_agent_turns(match)
    return found


def _start_when_everyone_joined(match_id: int) -> bool:
    """The last open invite of a match waiting for its players was just taken: the match starts now (its first
    think time counts from here). Whether this call started it."""
    if SeatClaim.objects.filter(seat__match_id=match_id, claimed_at__isnull=True).exists():
        return False
    started = Match.objects.filter(pk=match_id, wait_for_players=True).update(
        wait_for_players=False, turn_started_at=timezone.now()
    )
    return bool(started)


def hand_over(response: HttpResponse, seat_claim: SeatClaim) -> HttpResponse:
    """Give the browser that receives ``response`` the cookie that holds this seat: one for the seat's pages and
    one for its websocket, each sent only to those paths (no cookie piles up on the rest of the site)."""
    token = seat_claim.seat.token
    # Two names: a response keeps one cookie per name, whatever its path.
    for name, path in zip(_cookie_names(seat_claim.seat), (f"/play/{token}/", f"/ws/play/{token}/"), strict=True):
        response.set_signed_cookie(
            name,
            seat_claim.token,
            salt=COOKIE_SALT,
            max_age=COOKIE_MAX_AGE,
            path=path,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


# --- reads ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invite:
    seat: Seat
    token: str


def invite_status(seat_claim: SeatClaim) -> str:
    """"open", "taken", "expired" or "over" (the match has ended: nothing left to join)."""
    if seat_claim.claimed_at is not None:
        return "taken"
    if seat_claim.seat.match.status != Match.Status.ACTIVE:
        return "over"
    if timezone.now() - seat_claim.created_at > timedelta(hours=settings.INVITE_TTL_HOURS):
        return "expired"
    return "open"


def browser_may_use(request: HttpRequest, seat: Seat) -> bool:
    """Whether this browser may open the seat's pages: always for seats without a claim, else only the holder."""
    return cookies_hold(request.COOKIES, seat)


def cookies_hold(cookies: Mapping[str, str], seat: Seat) -> bool:
    """Whether a browser sending these cookies (a page request's or a websocket handshake's) may use the seat."""
    seat_claim = SeatClaim.objects.filter(seat=seat).first()
    if seat_claim is None:
        return True
    if seat_claim.claimed_at is None:
        return False  # reached by its seat token before anyone accepted the invite
    return any(_unsigned(cookies, name) == seat_claim.token for name in _cookie_names(seat))


def _unsigned(cookies: Mapping[str, str], name: str) -> str | None:
    # Django's own reading of its signed cookies, also for a websocket handshake's cookies.
    carrier = HttpRequest()
    carrier.COOKIES = dict(cookies)
    return carrier.get_signed_cookie(name, default=None, salt=COOKIE_SALT, max_age=COOKIE_MAX_AGE)


def open_invites(match: Match) -> list[Invite]:
    """The invites of a match that nobody has accepted yet and that still can be."""
    claims = SeatClaim.objects.filter(seat__match=match, claimed_at__isnull=True).select_related("seat__match")
    return [Invite(c.seat, c.token) for c in claims.order_by("seat__index") if invite_status(c) == "open"]


def invite_by_token(token: str) -> SeatClaim | None:
    """The claim of an invite link, or None; a malformed token is not found without asking the database."""
    token = clean_token(token)
    if token is None:
        return None
    return SeatClaim.objects.select_related("seat__match").filter(token=token).first()


def _cookie_names(seat: Seat) -> tuple[str, str]:
    """The cookie sent to the seat's pages, and the one sent to its websocket."""
    return f"seat-{seat.pk}", f"seat-{seat.pk}-ws"
