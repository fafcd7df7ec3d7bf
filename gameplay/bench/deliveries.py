"""How long each move took to reach every other seat: from when each seat's socket first showed each version.

A socket shows a move once it shows the version the move became or a later one (a socket that was behind may skip
versions: it then draws the newest state at once). Which version a move became is known only once its mover's
socket has read it off its move list, and in a game where seats act at once (Pit) another seat's socket may show it
before the mover's does; so each socket's versions are recorded as they come (``SeatTimeline``) and the moves are
matched against them after the run (``resolve``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gameplay.bench.audit import Send


@dataclass
class SeatTimeline:
    """The versions one seat's sockets showed, each with the moment it first did, in increasing order."""

    versions: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def saw(self, version: int, at: float) -> None:
        if not self.versions or version > self.versions[-1]:
            self.versions.append(version)
            self.times.append(at)

    def first_showing(self, version: int) -> float | None:
        """When this seat first showed ``version`` or a later one; None if it has not yet."""
        index = bisect_left(self.versions, version)
        return self.times[index] if index < len(self.versions) else None


def resolve(sends: Iterable[Send], timelines: Mapping[int, SeatTimeline]) -> int:
    """Fill each applied send's ``deliveries`` from the other seats' timelines (seats with a socket); returns how
    many (send, seat) deliveries are still missing."""
    missing = 0
    for send in sends:
        if not send.acked:
            continue
        for seat, timeline in timelines.items():
            if seat == send.seat or seat in send.deliveries:
                continue
            at = timeline.first_showing(send.result_version)
            if at is None:
                missing += 1
            else:
                send.deliveries[seat] = at
    return missing
