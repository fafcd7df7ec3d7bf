"""A state's log read from JSON (``log_from_json``): the same records as one ``ActionRecord.from_json`` per row,
each record without text built once and shared by every log that holds it (issue 39, point 6: every socket drawing a
move of a long Pit game rebuilt thousands of them)."""

from __future__ import annotations

import json

from gameplay.engines import spec
from gameplay.engines.registry import create_game
from gameplay.engines.spec import ActionRecord, log_from_json

ROWS = [[0, "offer:2:wheat", None], [1, "pass", None], ["2", 7, None], [0, "say", "hello"], [0, "offer:2:wheat", None]]


def test_the_records_are_those_from_json_builds():
    records = log_from_json(ROWS)
    assert records == [ActionRecord.from_json(row) for row in ROWS]
    assert records[2] == ActionRecord(2, "7", None)  # converted as from_json converts


def test_a_record_without_text_is_shared_and_one_with_text_is_not():
    first, second = log_from_json(ROWS), log_from_json(json.loads(json.dumps(ROWS)))
    assert first[0] is first[4] is second[0]
    assert first[3] == second[3] and first[3] is not second[3]


def test_the_shared_records_are_bounded(monkeypatch):
    monkeypatch.setattr(spec, "MAX_SHARED_RECORDS", 10)
    monkeypatch.setattr(spec, "_PLAIN_RECORDS", {})
    rows = [[0, f"offer:{n}", None] for n in range(50)]
    assert log_from_json(rows) == [ActionRecord.from_json(row) for row in rows]
    assert len(spec._PLAIN_RECORDS) == 10  # past the bound, records are built anew rather than kept


def test_a_state_read_back_plays_on_as_the_original():
    game = create_game("pit", {"max_hands": 1, "tick_cap": 6}, num_seats=3)
    state = game.new_initial_state(4)
    for _ in range(12):
        seat = state.current_seats()[0]
        state.apply_action(seat, state.legal_actions(seat)[0].id)
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.log == state.log and again.to_json() == state.to_json()
    seat = again.current_seats()[0]
    action = again.legal_actions(seat)[-1].id
    again.apply_action(seat, action)
    state.apply_action(seat, action)
    assert again.to_json() == state.to_json()
