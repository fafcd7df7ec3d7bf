"""What language models read of Two Rooms and a Boom stays byte-identical: every seat's and the public observation
text, the acting seat's action labels and the per-viewer labels of each move, at every step of seeded random
playouts (tests/engines/two_rooms_playouts.py), against digests recorded from the engine before its observation
gained facts for pages (data/two_rooms_text.json). Regenerate only for an intended change of wording:
``python -m tests.engines.test_two_rooms_text_golden``."""

from __future__ import annotations

from pathlib import Path

import pytest

from .two_rooms_playouts import PLAYOUTS, digest, load_golden, playout_key, steps, viewers, write_golden

GOLDEN = Path(__file__).resolve().parent / "data" / "two_rooms_text.json"


def text_record(state, move) -> dict:
    record = {"texts": [state.observation(v).text for v in viewers(state)]}
    if move is not None:
        seat, action_id, words = move
        record["legal"] = [[a.id, a.label] for a in state.legal_actions(seat)]
        record["text_actions"] = [[t.id, t.label, t.hint, t.max_length] for t in state.text_actions(seat)]
        labels = state.action_labels(seat, action_id, words)
        record["labels"] = [list(labels.by_seat), labels.public]
    return record


@pytest.mark.parametrize("playout", PLAYOUTS, ids=lambda p: playout_key(*p))
def test_observation_text_and_labels_are_unchanged(playout):
    expected = load_golden(GOLDEN)[playout_key(*playout)]
    got = [digest(text_record(state, move)) for state, move in steps(*playout)]
    assert len(got) == len(expected), "the playout took a different course"
    for step, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, f"step {step} reads differently"


if __name__ == "__main__":
    import django

    django.setup()
    write_golden(GOLDEN, text_record)
