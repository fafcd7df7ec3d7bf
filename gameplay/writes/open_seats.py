"""Open games: a host lists a match in the lobby, and any visitor takes one of its free seats (issue 39, point 3).

Joining from the lobby is accepting one of the match's invites (``seat_claims.claim``), chosen by the server, so the
lobby never shows an invite token and the race between two visitors is decided by the same conditional UPDATE as
two browsers opening one invite link.
"""

from __future__ import annotations

from gameplay.models import Match, SeatClaim
from gameplay.reads.open_games import joinable_matches
from gameplay.writes import seat_claims


def list_in_lobby(match: Match) -> bool:
    """Show this match among the lobby's open games while a seat is free; never a private one (a study round).
    Whether it is listed (a match with no invited seat has nothing to offer)."""
    if match.private or not seat_claims.open_invites(match):
        return False
    Match.objects.filter(pk=match.pk).update(in_lobby=True)
    match.in_lobby = True
    return True


def join(match_id: int) -> SeatClaim | None:
    """Take the first free seat of a listed match for the calling browser; None when it has none left (taken by
    others meanwhile, expired, the match over or never listed)."""
    match = joinable_matches().filter(pk=match_id).first()
    if match is None:
        return None
    for invite in seat_claims.open_invites(match):
        taken = seat_claims.claim(invite.token)
        if taken is not None:
            return taken
    return None
