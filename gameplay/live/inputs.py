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


def _input_key(match_id: int, seat: int) -> str:
    return f"live-input:{match_id}:{seat}"


def _lease_key(match_id: int) -> str:
    return f"live-runner:{match_id}"


def hold(match_id: int, seat: int, action_id: str, seq: int) -> None:
    cache.set(_input_key(match_id, seat), (action_id, int(seq)), INPUT_TTL_SECONDS)


def held(match_id: int, seats: list[int]) -> dict[int, Held]:
    found = cache.get_many([_input_key(match_id, s) for s in seats])
    result = {}
    for seat in seats:
        value = found.get(_input_key(match_id, seat))
        if value is not None:
            result[seat] = Held(str(value[0]), int(value[1]))
    return result


def take_lease(match_id: int) -> str | None:
    """A token for the caller if no runner holds this match's clock, else None."""
    token = uuid.uuid4().hex
    return token if cache.add(_lease_key(match_id), token, LEASE_SECONDS) else None


def renew_lease(match_id: int, token: str) -> bool:
    """Keep the lease; False when another runner holds it now (this one was presumed dead: it must stop)."""
    key = _lease_key(match_id)
    if cache.get(key) not in (token, None):
        return False
    cache.set(key, token, LEASE_SECONDS)
    return True


def release_lease(match_id: int, token: str) -> None:
    key = _lease_key(match_id)
    if cache.get(key) == token:
        cache.delete(key)


def lease_held(match_id: int) -> bool:
    return cache.get(_lease_key(match_id)) is not None
