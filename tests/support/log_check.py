"""After a scripted session against a real server: no token that grants something is in the server's log.

The tokens are read from the server's own SQLite database (every seat link, invite link, study participant link and
Prolific id it handed out), then looked for, verbatim, in everything the server wrote: its access log and its
application log (issue 37, point 5). The check also insists that the log recorded requests to token paths at all,
with the marker in their place, so a log that was simply empty cannot pass it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gameplay.project.log_redaction import REDACTED

# (table, column) of every value that grants something when it appears in a URL.
GRANTING = (
    ("gameplay_seat", "token"),
    ("gameplay_seatclaim", "token"),
    ("studies_participant", "token"),
    ("studies_participant", "prolific_pid"),
)


def granting_values(db_path: Path) -> set[str]:
    with sqlite3.connect(db_path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        values = set()
        for table, column in GRANTING:
            if table in tables:
                values.update(v for (v,) in db.execute(f"SELECT {column} FROM {table}") if v)
    return values


def assert_no_token_in_log(log_path: Path, db_path: Path, *, min_redacted: int = 1) -> int:
    """Fail if any granting value of the database is in the log; returns how many redacted lines the log has."""
    text = Path(log_path).read_text(encoding="utf-8", errors="replace")
    values = granting_values(db_path)
    leaked = sorted(v for v in values if v in text)
    assert not leaked, f"{len(leaked)} of {len(values)} tokens are in {log_path}: e.g. {leaked[0][:6]}..."
    redacted = sum(REDACTED in line for line in text.splitlines())
    assert redacted >= min_redacted, f"{log_path} holds {redacted} redacted request lines: did the server log at all?"
    return redacted
