"""Every bad frame gets an error fragment and changes nothing stored (both channel layers)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings as django_settings

from gameplay.models import Match
from gameplay.writes import services
from tests.gameplay.ws_support import (
    FLASH_ERROR,
    TIMEOUT,
    assert_rejected,
    clickable,
    close_all,
    connect,
    fingerprint,
    new_match,
    play_to_end,
    receive_until,
    submit,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


# --- rejected frames: an error fragment, nothing stored changes -----------------------


@pytest.mark.parametrize(
    "frame, message",
    [
        pytest.param("{not json", "not JSON", id="malformed-json"),
        pytest.param("[1, 2, 3]", "Malformed message", id="json-list"),
        pytest.param('"action"', "Malformed message", id="json-string"),
        pytest.param("null", "Malformed message", id="json-null"),
        pytest.param('{"kind": "resign"}', "Unknown message kind", id="unknown-kind"),
        pytest.param('{"action_id": "place:a1", "version": 0}', "Unknown message kind", id="no-kind"),
        pytest.param(
            '{"kind": "action", "action_id": "fly:a1", "version": 0}', "not a legal action", id="unknown-action"
        ),
        pytest.param('{"kind": "action", "action_id": "", "version": 0}', "malformed action id", id="empty-action"),
        pytest.param('{"kind": "action", "action_id": "place:a1"}', "version", id="no-version"),
        pytest.param('{"kind": "action", "action_id": "place:a1", "version": "x"}', "version", id="bad-version"),
        pytest.param('{"kind": "select", "location": 5}', "Malformed selection", id="bad-select"),
        pytest.param('{"kind": "chat", "text": "   "}', "empty message", id="empty-chat"),
        pytest.param('{"kind": "chat", "text": ["x"]}', "must be text", id="chat-not-text"),
    ],
)
async def test_malformed_frames_are_rejected(layer, frame, message):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    await assert_rejected(comm0, comm1, match_id, frame, message)
    await close_all(comm0, comm1)


async def test_action_by_seat_not_on_turn_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    frame = {"kind": "action", "action_id": "place:a1", "version": 0}  # legal for seat 0, not for seat 1
    reply = await assert_rejected(comm1, comm0, match_id, json.dumps(frame), "not Player 2")
    assert 'id="board"' in reply  # the seat's view is re-sent along with the error
    await close_all(comm0, comm1)


async def test_stale_version_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    comm1, _ = await connect(tok1)
    await submit(match_id, 0, "place:a1")  # e.g. from another tab: this socket's version 0 is now stale
    for comm in (comm0, comm1):
        await comm.receive_from(timeout=TIMEOUT)
    stale = clickable(html, "action")["c3"]["vals"]
    assert stale["version"] == 0
    reply = await assert_rejected(comm0, comm1, match_id, json.dumps(stale), "out of date")
    assert version_of(reply) == 1  # and the refreshed view comes with it
    future = {**stale, "version": 7}
    await assert_rejected(comm0, comm1, match_id, json.dumps(future), "out of date")
    await close_all(comm0, comm1)


async def test_action_after_the_end_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match(seed=5)
    match = await play_to_end(match_id)
    assert match.status == Match.Status.FINISHED
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)
    assert 'id="result"' in html0 and clickable(html0) == {}
    frame = {"kind": "action", "action_id": "place:a1", "version": match.version}
    await assert_rejected(comm0, comm1, match_id, json.dumps(frame), "the match is over")
    await assert_rejected(comm1, comm0, match_id, json.dumps(frame), "the match is over")
    await assert_rejected(comm0, comm1, match_id, json.dumps({"kind": "chat", "text": "gg"}), "the match is over")
    await close_all(comm0, comm1)


async def test_oversized_frame_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    text = "x" * 100_000
    frame = json.dumps({"kind": "chat", "text": text})
    assert len(frame) > django_settings.MAX_FRAME_BYTES
    await assert_rejected(comm0, comm1, match_id, frame, "too large")
    # A binary frame is not accepted either.
    before = await fingerprint(match_id)
    await comm0.send_to(bytes_data=b'{"kind": "chat", "text": "hi"}')
    assert FLASH_ERROR in await comm0.receive_from(timeout=TIMEOUT)
    assert await fingerprint(match_id) == before
    await close_all(comm0, comm1)


async def test_chat_over_max_length_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    text = "y" * 5_000
    frame = json.dumps({"kind": "chat", "text": text})
    assert len(text) > django_settings.MAX_CHAT_LENGTH and len(frame) <= django_settings.MAX_FRAME_BYTES
    reply = await assert_rejected(comm0, comm1, match_id, frame, f"longer than {django_settings.MAX_CHAT_LENGTH}")
    assert text not in reply
    await close_all(comm0, comm1)


async def test_unexpected_server_error_keeps_the_socket_and_changes_nothing(layer, monkeypatch):
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    comm1, _ = await connect(tok1)

    def broken_submit(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "apply_action", broken_submit)  # what the socket calls to apply a move
    frame = clickable(html, "action")["c3"]["vals"]
    await assert_rejected(comm0, comm1, match_id, json.dumps(frame), "Something went wrong on the server")
    monkeypatch.undo()
    # The same socket still works afterwards.
    await comm0.send_to(text_data=json.dumps(frame))
    reply = await receive_until(comm0, lambda h: 'id="board"' in h)
    assert version_of(reply) == 1
    await close_all(comm0, comm1)
