"""Shared helper of the export tests: an exported CSV file read back as its header and rows."""

from __future__ import annotations

import csv
import io


def parse(data: bytes) -> tuple[list[str], list[dict]]:
    reader = csv.DictReader(io.StringIO(data.decode("utf-8"), newline=""))
    rows = list(reader)
    return reader.fieldnames, rows
