"""Chat lines per minute per seat (issue 13, point 6): past MAX_CHAT_PER_MINUTE a line is refused with a message and
not stored or sent, while the partner keeps a budget of its own; the limit lives in the service (post_message), so
every caller meets it. The socket test runs on the in-memory channel layer and, in CI's phase 2, on channels_redis
(the ``layer`` fixture, tests/gameplay/conftest.py). Chat sent incrementally: test_chat_incremental.py."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from gameplay.models import Event
from gameplay.writes import services
from tests.gameplay.ws_support import FLASH_ERROR, TIMEOUT, close_all, connect, new_match

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def message_count(match_id: int) -> int:
    return Event.objects.filter(match_id=match_id, kind=Event.Kind.MESSAGE).count()


async def test_chat_past_the_limit_is_refused_and_not_stored(layer, settings):
    settings.MAX_CHAT_PER_MINUTE = 3
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    for n in range(3):
        await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": f"line {n}"}))
        for comm in (comm0, comm1):
            assert f"line {n}" in await comm.receive_from(timeout=TIMEOUT)

    await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": "one too many"}))
    refused = await comm0.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in refused and "too many messages" in refused and "Nothing was sent" in refused
    assert "one too many" not in refused
    await comm1.receive_nothing()
    assert await message_count(match_id) == 3
    # The partner's budget is its own.
    await comm1.send_to(text_data=json.dumps({"kind": "chat", "text": "my turn to talk"}))
    assert "my turn to talk" in await comm0.receive_from(timeout=TIMEOUT)
    assert await message_count(match_id) == 4
    await close_all(comm0, comm1)


def test_the_chat_limit_holds_in_the_service(db, settings):
    """Every caller (sockets, agents, scripts) goes through post_message, so that is where the limit lives."""
    settings.MAX_CHAT_PER_MINUTE = 2
    match = services.create_match("santorini", [services.SeatController("human")] * 2, seed=3)
    services.post_message(match.pk, 1, "hi")
    services.post_message(match.pk, 1, "there")
    with pytest.raises(services.ServiceError, match="too many messages: at most 2 a minute"):
        services.post_message(match.pk, 1, "again")
    assert Event.objects.filter(match=match, kind=Event.Kind.MESSAGE).count() == 2
    services.post_message(match.pk, 0, "seat 0 may still talk")
