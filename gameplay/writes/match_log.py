"""The two steps every write to a match starts with: lock its row, then append to its event log (used by
gameplay.writes.services and gameplay.writes.match_endings, inside their transactions)."""

from __future__ import annotations

from gameplay.models import Event, Match


class ServiceError(Exception):
    """A request the service refuses; ``str(err)`` is a message fit for the user."""


def locked_match(match_id: int) -> Match:
    """The match, its row locked until the transaction ends (SELECT ... FOR UPDATE); ServiceError if none."""
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError("no such match") from None


def append_event(match: Match, kind: str, seat: int | None, payload: dict, think_ms: int | None) -> Event:
    """The match's next event (seq = the last one's + 1; the row lock keeps it unique)."""
    last = match.events.order_by("-seq").values_list("seq", flat=True).first() or 0
    return Event.objects.create(
        match=match, seq=last + 1, kind=kind, seat=seat, payload=payload, think_time_ms=think_ms, version=match.version
    )
