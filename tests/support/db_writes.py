"""Recording the SQL statements that write, for tests that a request (a GET, a page view) changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.db import connection

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|MERGE)\b", re.IGNORECASE)


class WriteRecorder:
    """A connection.execute_wrapper that records writing statements (labelled with ``label``) and runs them all."""

    def __init__(self):
        self.writes: list[str] = []
        self.label = ""

    def __call__(self, execute, sql, params, many, context):
        if WRITE.match(sql or ""):
            self.writes.append(f"{self.label}: {sql[:90]}" if self.label else sql[:90])
        return execute(sql, params, many, context)


def writes_during(callback: Callable[[], object]) -> list[str]:
    """The writing statements ``callback`` ran on the default connection (empty when it only read)."""
    recorder = WriteRecorder()
    with connection.execute_wrapper(recorder):
        callback()
    return recorder.writes
