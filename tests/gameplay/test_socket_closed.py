"""A frame for a socket whose browser has gone is dropped quietly (issue 37).

Under daphne, a group message that reaches a consumer after its browser closed (before the disconnect does) makes
the send raise autobahn's Disconnected, "Attempt to send on a closed protocol". Here the ASGI application runs behind
a ``send`` that raises exactly that once the browser is "gone", as daphne's does, and another seat's move is what
arrives for it."""

from __future__ import annotations

import asyncio
import logging

import pytest
from autobahn.exception import Disconnected

from gameplay.project.asgi import application
from tests.gameplay.ws_support import ORIGIN, TIMEOUT, SeatCommunicator, legal_ids, new_match, submit

pytestmark = pytest.mark.django_db(transaction=True)


class GoneBrowser:
    """The site's ASGI application with a server ``send`` that fails like daphne's once ``gone`` is set."""

    def __init__(self):
        self.gone = False

    async def __call__(self, scope, receive, send):
        async def send_unless_gone(message):
            if self.gone and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, send_unless_gone)


async def until(condition, timeout: float = TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(0.02)


async def test_a_frame_for_a_socket_that_has_closed_is_dropped_quietly(layer, caplog):
    match_id, (_, tok1) = await new_match()
    browser = GoneBrowser()
    comm = SeatCommunicator(browser, f"/ws/play/{tok1}/", headers=ORIGIN)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await comm.receive_from(timeout=TIMEOUT)  # the view a socket gets on opening
    browser.gone = True
    caplog.set_level(logging.DEBUG, logger="gameplay.web.closed_sockets")

    await submit(match_id, 0, (await legal_ids(match_id, 0))[0])  # seat 1's socket is sent the move

    def dropped() -> bool:
        return any("closed socket" in r.getMessage() for r in caplog.records)

    await until(lambda: dropped() or comm.future.done())

    assert not comm.future.done(), "the consumer ended instead of dropping the frame"
    assert dropped()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    await comm.disconnect()
