"""The labelled intent set of the Gnomes language tests (fixtures/gnomes/intents.jsonl): its header and its
(message, flag) examples."""

from __future__ import annotations

import json
from pathlib import Path

from agents_app.agents.gnomes.flags import Flag

ROOT = Path(__file__).resolve().parents[3]
INTENT_SET = ROOT / "fixtures" / "gnomes" / "intents.jsonl"


def load_intent_set(path=None) -> tuple[dict, list[tuple[str, Flag]]]:
    lines = (path or INTENT_SET).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    rows = [json.loads(line) for line in lines[1:] if line.strip()]
    return header, [(row["text"], Flag(row["flag"])) for row in rows]
