"""Numbers a load benchmark reports: latency percentiles and the CPU time of the server's processes."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def percentile(samples: Sequence[float], p: float) -> float:
    """The p-th percentile (0 < p <= 100) by the nearest-rank method: always a value that was measured. The one
    percentile of every benchmark and report here, so their p95s mean the same thing."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def percentiles(samples_ms: Sequence[float]) -> dict[str, float | None]:
    """p50/p90/p95/p99/max (nearest rank, rounded to 0.1 ms); None when empty."""

    def rank(p: float) -> float | None:
        return round(percentile(samples_ms, p), 1) if samples_ms else None

    return {"count": len(samples_ms), "p50": rank(50), "p90": rank(90), "p95": rank(95), "p99": rank(99),
            "max": rank(100)}


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces; the fields after it are plain.
    return text[text.rindex(")") + 2 :].split()


def _children(pids: Iterable[int]) -> set[int]:
    """Every descendant of ``pids`` (e.g. worker processes a server forked)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields:
                parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = list(pids)
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


class ServerCpu:
    """CPU seconds (user + system) the given processes used between two readings, their children included:
    live ones read directly, exited ones through the parent's cutime/cstime (e.g. PostgreSQL's per-connection
    backends)."""

    def __init__(self, pids: Sequence[int]):
        self.pids = list(pids)
        self.children: dict[int, set[int]] = {}
        self._start: dict[int, int] = {}

    def _ticks(self) -> dict[int, int]:
        ticks = {}
        for root in self.pids:
            for pid in [root, *sorted(self.children.get(root, ()))]:
                fields = _stat_fields(pid)
                if fields:
                    # utime, stime, cutime, cstime: fields 14-17 of the line
                    ticks[pid] = sum(int(f) for f in fields[11:15])
        return ticks

    def _find_children(self) -> None:
        for root in self.pids:
            self.children.setdefault(root, set()).update(_children([root]))

    def start(self) -> None:
        missing = [pid for pid in self.pids if _stat_fields(pid) is None]
        if missing:
            raise ValueError(f"no such process: {', '.join(map(str, missing))}")
        self._find_children()
        self._start = self._ticks()

    def stop(self) -> dict:
        self._find_children()
        end = self._ticks()
        # A process that exited in between is left out (unless its parent reaped it: cutime); a new one counts
        # from zero.
        used = {pid: end[pid] - self._start.get(pid, 0) for pid in end}
        by_root = {
            str(root): round(sum(used.get(pid, 0) for pid in [root, *self.children[root]]) / _CLOCK_TICKS, 2)
            for root in self.pids
        }
        return {
            "pids": self.pids,
            "child_processes": sum(len(c) for c in self.children.values()),
            "cpu_seconds": round(sum(used.values()) / _CLOCK_TICKS, 2),
            "cpu_seconds_by_pid": by_root,
        }
