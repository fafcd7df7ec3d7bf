"""Which rounds.csv rows the analyses use, read from the rows alone (pure), so a CSV reader can apply the same
rules: completed, played as assigned, each match once (see ``report``'s docstring for why)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def analysis_flags(rows: Sequence[Mapping]) -> list[bool]:
    """Per round row: whether it enters the per-round tests (the three rules above)."""
    seen, chosen = set(), set()
    for i in sorted(range(len(rows)), key=lambda i: (participant_number(rows[i]["participant"]), i)):
        row = rows[i]
        if counted(row) and str(row["match_id"]) not in seen:
            seen.add(str(row["match_id"]))
            chosen.add(i)
    return [i in chosen for i in range(len(rows))]


def counted(row: Mapping) -> bool:
    """Completed and as assigned: the first two rules (the match rule needs every row, see analysis_flags)."""
    return truthy(row["completed"]) and truthy(row["as_assigned"])


def is_blank(value) -> bool:
    return value is None or str(value).strip() == ""


def truthy(value) -> bool:
    return str(value).strip().lower() in {"1", "true", "yes"}


def participant_number(code) -> int:
    """'P0007' -> 7; anything else sorts last, still stably."""
    text = str(code)
    return int(text[1:]) if text[:1] == "P" and text[1:].isdigit() else 10**12
