"""Checks what the benchmark clients believe against the match event log, the record that counts.

Every send is (match, seat, action id, the version it was sent at). The service applies it as the action event
whose version is one more, so an acknowledged send missing from the log was lost, a log event that answers no
send (or a second event at one version) was applied twice, and versions must follow each other without gaps. An
agent seat's actions come from the server, not from a send: they only count towards gaps and repeats.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass


@dataclass
class Send:
    match_id: int
    seat: int
    action_id: str
    version: int  # the version the client saw and sent with
    sent_at: float
    measured: bool  # sent inside the measurement window (after the warm-up, before the end)
    acked_at: float | None = None  # the mover's socket showed version + 1
    partner_at: float | None = None  # the first other seat's socket showed version + 1
    rejected: str | None = None  # the error the mover's socket got instead

    @property
    def acked(self) -> bool:
        return self.acked_at is not None and self.rejected is None


@dataclass(frozen=True)
class LoggedAction:
    match_id: int
    seat: int | None
    action_id: str
    version: int  # the match version after it


def audit(
    sends: Iterable[Send], logged: Iterable[LoggedAction], agent_seats: Mapping[int, AbstractSet[int]] | None = None
) -> dict[str, int]:
    """``agent_seats``: by match id, the seats the server's agents played; their actions answer no client send."""
    agent_seats = agent_seats or {}
    by_version: dict[tuple[int, int], list[LoggedAction]] = defaultdict(list)
    for event in logged:
        by_version[(event.match_id, event.version)].append(event)
    sends = list(sends)
    sent_keys = Counter((s.match_id, s.seat, s.action_id, s.version + 1) for s in sends)
    lost = applied_unacked = 0
    for send in sends:
        events = by_version.get((send.match_id, send.version + 1), [])
        in_log = any(e.seat == send.seat and e.action_id == send.action_id for e in events)
        if send.acked and not in_log:
            lost += 1
        elif in_log and not send.acked:
            applied_unacked += 1  # e.g. still in flight when the run stopped
    repeated = sum(len(events) - 1 for events in by_version.values())
    # A single event at its version that answers no send (two at one version are counted just above).
    unexplained = sum(
        1
        for events in by_version.values()
        if len(events) == 1
        and events[0].seat not in agent_seats.get(events[0].match_id, ())
        and not sent_keys[(events[0].match_id, events[0].seat, events[0].action_id, events[0].version)]
    )
    gaps = 0
    versions_by_match: dict[int, set[int]] = defaultdict(set)
    for match_id, version in by_version:
        versions_by_match[match_id].add(version)
    for versions in versions_by_match.values():
        gaps += max(versions) - len(versions)  # versions run 1..n in a match with n actions
    return {
        "lost": lost,
        "duplicated": repeated + unexplained,
        "version_gaps": gaps,
        "applied_unacknowledged": applied_unacked,
    }


def logged_actions(match_ids: Iterable[int]) -> list[LoggedAction]:
    """The action events of these matches, from the shared database."""
    from gameplay.models import Event  # Django only here: the checks above are plain Python

    rows = Event.objects.filter(match_id__in=list(match_ids), kind=Event.Kind.ACTION).values_list(
        "match_id", "seat", "payload", "version"
    )
    return [
        LoggedAction(match_id, seat, str((payload or {}).get("action_id", "")), version)
        for match_id, seat, payload, version in rows
    ]
