"""Sockets per seat (issue 13, point 6: "one seat token opens any number of sockets"): a new socket past
MAX_SOCKETS_PER_SEAT closes the seat's oldest one, with a message and a close code the page does not reconnect on,
while the newest play on and other seats are counted on their own; rows left by a dead server process make way
first. On the in-memory channel layer and, in CI's phase 2, on channels_redis (the ``layer`` fixture,
tests/gameplay/conftest.py)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from gameplay.models import Seat
from tests.gameplay.ws_support import FLASH_ERROR, TIMEOUT, clickable, close_all, connect, new_match, version_of

pytestmark = pytest.mark.django_db(transaction=True)


EVICTED = "opened in another tab or window"


@database_sync_to_async
def open_sockets_of(token: str) -> int:
    return Seat.objects.get(token=token).connections.count()


async def closed_with_message(comm) -> int:
    """The evicted socket's last words: the message, then the close; returns the close code."""
    html = await comm.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in html and EVICTED in html
    assert 'id="board"' not in html
    output = await comm.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close"
    return output.get("code")


async def test_a_new_socket_past_the_limit_closes_the_oldest(layer, settings):
    settings.MAX_SOCKETS_PER_SEAT = 2
    match_id, (tok0, tok1) = await new_match()
    first, _ = await connect(tok0)
    second, _ = await connect(tok0)
    await first.receive_nothing()  # within the limit nobody is closed
    third, html = await connect(tok0)  # a reload, a new tab, or a script opening socket after socket

    assert await closed_with_message(first) == 4001  # not a code the htmx extension reconnects on
    await second.receive_nothing()
    assert await open_sockets_of(tok0) == 2
    # The newest sockets play on: both follow seat 0's move.
    await third.send_to(text_data=json.dumps(clickable(html, "action")["c3"]["vals"]))
    for comm in (third, second):
        assert version_of(await comm.receive_from(timeout=TIMEOUT)) == 1
    # A fourth socket closes the oldest remaining one, never the new one.
    fourth, _ = await connect(tok0)
    assert await closed_with_message(second) == 4001
    await third.receive_nothing()
    # Other seats are counted on their own.
    other, _ = await connect(tok1)
    await third.receive_nothing()
    await fourth.receive_nothing()
    await close_all(first, second)
    await third.disconnect()
    assert await open_sockets_of(tok0) == 1  # a closed socket no longer counts
    await close_all(fourth, other)
    assert await open_sockets_of(tok0) == 0


async def test_stale_sockets_never_block_a_new_one(layer, settings):
    """Rows left by a server process that died are the oldest: they make way, and telling their dead channels
    to close is harmless."""
    settings.MAX_SOCKETS_PER_SEAT = 2
    _, (tok0, _) = await new_match()

    @database_sync_to_async
    def leave_stale_rows():
        seat = Seat.objects.get(token=tok0)
        for n in range(3):
            seat.connections.create(channel_name=f"specific.dead{n}!gone{n}")

    await leave_stale_rows()
    comm, html = await connect(tok0)
    assert version_of(html) == 0 and "Your turn" in html
    assert await open_sockets_of(tok0) == 2  # the new socket and one stale row, never more than the limit
    again, _ = await connect(tok0)
    assert await open_sockets_of(tok0) == 2
    await comm.receive_nothing()  # the stale row went first
    await close_all(comm, again)
