"""The bounded click selection (issue 13, point 6: "the click selection grows without bound"): past MAX_SELECTION a
selected cell is refused with a message and nothing rendered, while stepping back and starting anew still work and
the match is unchanged. On the in-memory channel layer and, in CI's phase 2, on channels_redis (the ``layer``
fixture, tests/gameplay/conftest.py)."""

from __future__ import annotations

import json

import pytest

from tests.gameplay.ws_support import FLASH_ERROR, TIMEOUT, close_all, connect, fingerprint, new_match

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_selection_is_bounded(layer, settings):
    settings.MAX_SELECTION = 3
    match_id, (tok0, _) = await new_match()
    comm0, _ = await connect(tok0)
    before = await fingerprint(match_id)
    for cell in ("a1", "a2", "a3"):
        await comm0.send_to(text_data=json.dumps({"kind": "select", "location": cell}))
        assert 'id="board"' in await comm0.receive_from(timeout=TIMEOUT)
    for cell in ("a4", "a5"):  # never grows past the limit
        await comm0.send_to(text_data=json.dumps({"kind": "select", "location": cell}))
        refused = await comm0.receive_from(timeout=TIMEOUT)
        assert FLASH_ERROR in refused and "at most 3" in refused and 'id="board"' not in refused
    # Stepping back and starting anew still work.
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "a3"}))
    assert 'id="board"' in await comm0.receive_from(timeout=TIMEOUT)
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "a4"}))
    assert FLASH_ERROR not in await comm0.receive_from(timeout=TIMEOUT)
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "b1", "restart": True}))
    assert FLASH_ERROR not in await comm0.receive_from(timeout=TIMEOUT)
    assert await fingerprint(match_id) == before
    await close_all(comm0)
