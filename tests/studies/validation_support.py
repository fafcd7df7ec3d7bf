"""Shared builders of the study-rules tests: seats (a participant, the random agent), a Likert item, and a study and a
condition as load_study reads them, valid unless a test overrides a field."""

from __future__ import annotations

ME, OTHER = {"kind": "participant"}, {"kind": "participant"}
RANDOM = {"kind": "agent", "agent": "random"}
LIKERT = [{"key": "fun", "prompt": "Fun?", "low": "No", "high": "Yes"}]


def study(**fields) -> dict:
    return {"game_id": "santorini", "rounds": [{}, {}], "likert_items": LIKERT, "likert_scale": 5,
            "pairing_timeout_action": "agent", "pairing_fallback_agent": "random", **fields}


def condition(key="c", seats=(ME, RANDOM), options=None) -> dict:
    return {"key": key, "seats": list(seats), "options": options or {}}
