"""Checks what the benchmark clients believe against the match event log, the record that counts.

Every send is (match, seat, action id, the version it was sent at). The service applies it as an action event at a
later version: the next one in a turn-based game, possibly a later one where seats act at once (Pit: another seat's
move can land between the view and the click), which the mover's socket reads off its move list
(``Send.applied_version``). So an acknowledged send missing from the log at that version was lost, a log event that
answers no send (or a second event at one version) was applied twice, and versions must follow each other without
gaps. An agent seat's actions come from the server, not from a send: they only count towards gaps and repeats.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field


@dataclass
class Send:
    match_id: int
    seat: int
    action_id: str
    version: int  # the version the client saw and sent with
    sent_at: float
    measured: bool  # sent inside the measurement window (after the warm-up, before the end)
    acked_at: float | None = None  # the mover's socket showed the move applied
    # The match version after the move, as the mover's socket read it (its move list); None: version + 1 (a frame
    # without a move list, or not yet acknowledged).
    applied_version: int | None = None
    rejected: str | None = None  # the error the mover's socket got instead
    # When each other seat's socket first showed the move (its version or a later one), by seat; filled after the
    # run (gameplay.bench.deliveries).
    deliveries: dict[int, float] = field(default_factory=dict)

    @property
    def acked(self) -> bool:
        return self.acked_at is not None and self.rejected is None

    @property
    def result_version(self) -> int:
        """The match version the move became (if it was applied)."""
        return self.applied_version if self.applied_version is not None else self.version + 1

    @property
    def partner_at(self) -> float | None:
        """When the first other seat's socket showed the move."""
        return min(self.deliveries.values(), default=None)


@dataclass(frozen=True)
class LoggedAction:
    match_id: int
    seat: int | None
    action_id: str
    version: int  # the match version after it


def audit(
    sends: Iterable[Send],
    logged: Iterable[LoggedAction],
    agent_seats: Mapping[int, AbstractSet[int]] | None = None,
    start_versions: Mapping[int, int] | None = None,
) -> dict[str, int]:
    """``agent_seats``: by match id, the seats the server's agents played; their actions answer no client send.
    ``start_versions``: by match id, the version it had when the clients joined it; the events up to there are
    not theirs to answer for."""
    agent_seats = agent_seats or {}
    start_versions = start_versions or {}
    by_version: dict[tuple[int, int], list[LoggedAction]] = defaultdict(list)
    for event in logged:
        if event.version > start_versions.get(event.match_id, 0):
            by_version[(event.match_id, event.version)].append(event)
    # Each send answered by at most one event, and each event answering at most one send: an acknowledged send by
    # the event at the version its mover read; any other by its seat's first event of that action after the
    # version it was sent at that no send has claimed (in a turn-based game, the next version).
    claimed: set[int] = set()  # id() of the events that answer a send

    def claim(event: LoggedAction | None) -> bool:
        if event is None or id(event) in claimed:
            return False
        claimed.add(id(event))
        return True

    def answers(send: Send, event: LoggedAction) -> bool:
        return event.seat == send.seat and event.action_id == send.action_id

    sends = sorted(sends, key=lambda s: (not s.acked, s.match_id, s.version))
    by_seat: dict[tuple[int, int | None], list[LoggedAction]] = defaultdict(list)
    for events in by_version.values():
        for event in events:
            by_seat[(event.match_id, event.seat)].append(event)
    for events in by_seat.values():
        events.sort(key=lambda e: e.version)
    lost = applied_unacked = 0
    for send in sends:
        if send.acked:
            events = by_version.get((send.match_id, send.result_version), [])
            if not claim(next((e for e in events if answers(send, e) and id(e) not in claimed), None)):
                lost += 1
        else:
            later = (e for e in by_seat.get((send.match_id, send.seat), []) if e.version > send.version)
            if claim(next((e for e in later if answers(send, e) and id(e) not in claimed), None)):
                applied_unacked += 1  # e.g. still in flight when the run stopped
    repeated = sum(len(events) - 1 for events in by_version.values())
    # A single event at its version that answers no send (two at one version are counted just above).
    unexplained = sum(
        1
        for events in by_version.values()
        if len(events) == 1
        and events[0].seat not in agent_seats.get(events[0].match_id, ())
        and id(events[0]) not in claimed
    )
    gaps = 0
    versions_by_match: dict[int, set[int]] = defaultdict(set)
    for match_id, version in by_version:
        versions_by_match[match_id].add(version)
    for match_id, versions in versions_by_match.items():
        # versions run start + 1 .. n in a match with n actions
        gaps += max(versions) - start_versions.get(match_id, 0) - len(versions)
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
