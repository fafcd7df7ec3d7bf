"""The lobby's open games (issue 39, point 3): public matches whose host listed them, with a seat still free.

A seat is free while its invite (``SeatClaim``) is unclaimed and not expired, and the match is active: the same
test as an invite link's (``seat_claims.invite_status``), made in the query so the lobby reads a page of matches
in a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.timesince import timesince

from gameplay.models import Match, Seat, SeatClaim
from gameplay.reads.agent_directory import agent_label

OPEN_GAMES_SHOWN = 20


@dataclass(frozen=True)
class SeatLine:
    name: str
    who: str  # "free", "a person", "agent: Random"
    free: bool


@dataclass(frozen=True)
class OpenGame:
    match_id: int
    game_id: str
    created_at: datetime
    seats: tuple[SeatLine, ...]

    @property
    def free_seats(self) -> int:
        return sum(1 for seat in self.seats if seat.free)

    @property
    def started_words(self) -> str:
        """"started just now" for the first minute, then "started 3 minutes ago"."""
        if timezone.now() - self.created_at < timedelta(minutes=1):
            return "started just now"
        return f"started {timesince(self.created_at)} ago"


def _invite_cutoff() -> datetime:
    return timezone.now() - timedelta(hours=settings.INVITE_TTL_HOURS)


def joinable_matches():
    """Listed, public, active matches with at least one free seat, newest first."""
    free = SeatClaim.objects.filter(claimed_at__isnull=True, created_at__gte=_invite_cutoff())
    return (
        Match.objects.filter(in_lobby=True, private=False, status=Match.Status.ACTIVE)
        .filter(pk__in=free.values("seat__match_id"))
        .order_by("-created_at", "-pk")
    )


def open_games(limit: int = OPEN_GAMES_SHOWN) -> list[OpenGame]:
    cutoff = _invite_cutoff()
    matches = joinable_matches().prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("claim").order_by("index"))
    )[:limit]
    games = []
    for match in matches:
        lines = []
        for seat in match.seats.all():
            claim = getattr(seat, "claim", None) if seat.controller == Seat.Controller.HUMAN else None
            free = claim is not None and claim.claimed_at is None and claim.created_at >= cutoff
            who = "free" if free else f"agent: {agent_label(seat.agent_name)}" if seat.is_agent else "a person"
            lines.append(SeatLine(seat.display_name, who, free))
        games.append(OpenGame(match.pk, match.game_id, match.created_at, tuple(lines)))
    return games
