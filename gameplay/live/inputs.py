"""What each person holds in a live match, and which process runs its clock, kept in the cache (Redis when set).

A socket writes its seat's held input on every change (``hold``); the match's one runner reads them all at each
decision point. The runner holds a lease while it runs, renewed every second: a runner that died (its process
killed) lets the lease lapse, and the next socket to open or to send an input starts a new one, which resumes
from the committed match.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.core.cache import cache

LEASE_SECONDS = 5
INPUT_TTL_SECONDS = 600
MAX_SEQ = 2**31


@dataclass(frozen=True)
class Held:
    action_id: str
    seq: int  # the browser's counter of input changes, echoed with the frames it produced (latency)


def match_key(match) -> str:
    """The match's name in the cache: its id and creation time, so that a match of another database sharing the
    cache (a test run, a restored backup) never reads this one's inputs or lease."""
    return f"{match.pk}-{match.created_at.timestamp():.6f}"


def _input_key(key: str, seat: int) -> str:
    return f"live-input:{key}:{seat}"


def _lease_key(key: str) -> str:
    return f"live-runner:{key}"


def hold(key: str, seat: int, action_id: str, seq: int) -> None:
    cache.set(_input_key(key, seat), (action_id, int(seq)), INPUT_TTL_SECONDS)


def held(key: str, seats: list[int]) -> dict[int, Held]:
    found = cache.get_many([_input_key(key, s) for s in seats])
    result = {}
    for seat in seats:
        value = found.get(_input_key(key, seat))
        if value is not None:
            result[seat] = Held(str(value[0]), int(value[1]))
    return result


def take_lease(key: str) -> str | None:
    """A token for the caller if no runner holds this match's clock, else None."""
    token = uuid.uuid4().hex
    return token if cache.add(_lease_key(key), token, LEASE_SECONDS) else None


def renew_lease(key: str, token: str) -> bool:
    """Keep the lease; False when another runner holds it now (this one was presumed dead: it must stop)."""
    name = _lease_key(key)
    if cache.get(name) not in (token, None):
        return False
    cache.set(name, token, LEASE_SECONDS)
    return True


def release_lease(key: str, token: str) -> None:
    name = _lease_key(key)
    if cache.get(name) == token:
        cache.delete(name)


def lease_held(key: str) -> bool:
    return cache.get(_lease_key(key)) is not None
