"""Limits per client address (issue 37, point 5): frames from one address are counted over all its sockets, on any
number of matches, while another address keeps its budget; a socket past FLOOD_FRAMES_PER_SECOND is told why and
closed, and its address opens no match socket for FLOOD_BAR_SECONDS (refused after a delay, in this process and
through the shared cache); an address opens a bounded number of sockets a minute; and expired flood bars are
forgotten. On the in-memory channel layer with the per-process cache and, in CI's phase 2, on channels_redis with
the Redis cache (the ``layer`` fixture, tests/gameplay/conftest.py)."""

from __future__ import annotations

import asyncio
import json

import pytest

from gameplay.project.asgi import application
from tests.gameplay.socket_limits_support import frozen_clock, isolated_cache  # noqa: F401 (fixtures)
from tests.gameplay.ws_support import (
    ORIGIN,
    TIMEOUT,
    SeatCommunicator,
    clickable,
    close_all,
    fingerprint,
    new_match,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def from_address(token: str, address: str) -> tuple[SeatCommunicator, str]:
    """A seat's socket as a client at ``address`` opens it (the server reads the address from the ASGI scope)."""
    comm = SeatCommunicator(application, f"/ws/play/{token}/", headers=ORIGIN)
    comm.scope["client"] = (address, 40000)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm, await comm.receive_from(timeout=TIMEOUT)


async def test_one_client_flooding_from_many_matches_is_refused_past_its_own_budget(isolated_cache, settings,  # noqa: F811
                                                                                   frozen_clock):  # noqa: F811
    """Issue 37, point 5: limits per seat alone let one visitor with ten matches of their own flood the server.
    Frames from one address are counted over all its sockets; another address keeps its budget."""
    settings.MAX_FRAMES_PER_SECOND, settings.MAX_FRAMES_PER_SECOND_PER_CLIENT = 100, 6
    sockets = []
    for _ in range(3):  # three matches of one visitor, a socket each
        _, (token, _) = await new_match()
        sockets.append((await from_address(token, "198.51.100.7"))[0])
    _, (other_token, _) = await new_match()
    other, _ = await from_address(other_token, "198.51.100.8")
    for comm in sockets:
        for _ in range(2):
            await comm.send_to(text_data=json.dumps({"kind": "clear"}))
            assert 'id="board"' in await comm.receive_from(timeout=TIMEOUT)
    await sockets[0].send_to(text_data=json.dumps({"kind": "clear"}))  # the seventh frame of this second
    refused = await sockets[0].receive_from(timeout=TIMEOUT)
    assert "Too many messages" in refused and 'id="board"' not in refused
    await sockets[2].send_to(text_data=json.dumps({"kind": "clear"}))
    await sockets[2].receive_nothing()
    await other.send_to(text_data=json.dumps({"kind": "clear"}))  # another address: its own budget
    assert 'id="board"' in await other.receive_from(timeout=TIMEOUT)
    frozen_clock.now += 1
    await sockets[2].send_to(text_data=json.dumps({"kind": "clear"}))
    assert 'id="board"' in await sockets[2].receive_from(timeout=TIMEOUT)
    await close_all(*sockets, other)


async def refused_from(token: str, address: str) -> bool:
    """Whether a socket from ``address`` is refused at the handshake (closed before it is accepted)."""
    comm = SeatCommunicator(application, f"/ws/play/{token}/", headers=ORIGIN)
    comm.scope["client"] = (address, 40001)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    if connected:
        await comm.disconnect()
    return not connected


async def test_a_flooding_socket_is_closed_and_its_address_barred(isolated_cache, settings, frozen_clock):  # noqa: F811
    """Issue 37, point 5: dropping a flood frame by frame still reads every frame. A socket past
    FLOOD_FRAMES_PER_SECOND in one second is told why and closed (a code the page does not reconnect on), and its
    address opens no match socket for FLOOD_BAR_SECONDS, on any match; other addresses are not touched."""
    from gameplay.web import socket_limits

    settings.MAX_FRAMES_PER_SECOND, settings.FLOOD_FRAMES_PER_SECOND, settings.FLOOD_BAR_SECONDS = 5, 12, 1
    settings.FLOOD_REFUSAL_DELAY_SECONDS = 0.4
    match_id, (token, other_seat) = await new_match()
    _, (second_match_token, _) = await new_match()
    flooder, html = await from_address(token, "203.0.113.5")
    person, _ = await from_address(other_seat, "203.0.113.6")
    before = await fingerprint(match_id)
    move = clickable(html, "action")["c3"]["vals"]
    for _ in range(12):  # the limit's five, the one told why, six dropped: still open
        await flooder.send_to(text_data=json.dumps({"kind": "clear"}))
    for _ in range(5):
        assert 'id="board"' in await flooder.receive_from(timeout=TIMEOUT)
    assert "Too many messages" in await flooder.receive_from(timeout=TIMEOUT)
    await flooder.receive_nothing()
    await flooder.send_to(text_data=json.dumps(move))  # the thirteenth frame of the second: a flood
    assert "far more messages than a person can" in await flooder.receive_from(timeout=TIMEOUT)
    closed = await flooder.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": socket_limits.FLOOD_CLOSE_CODE}
    assert await fingerprint(match_id) == before  # the move inside the flood was not applied

    # Barred: the same address opens no socket, on this match or another; the other address plays on. A refusal
    # is answered only after FLOOD_REFUSAL_DELAY_SECONDS, so a script cannot retry at once.
    started = asyncio.get_running_loop().time()
    assert await refused_from(token, "203.0.113.5")
    assert asyncio.get_running_loop().time() - started >= 0.4
    settings.FLOOD_REFUSAL_DELAY_SECONDS = 0
    assert await refused_from(second_match_token, "203.0.113.5")
    socket_limits._barred.clear()  # as in another server process: the bar is in the shared cache too
    assert await refused_from(second_match_token, "203.0.113.5")
    await person.send_to(text_data=json.dumps({"kind": "clear"}))
    assert 'id="board"' in await person.receive_from(timeout=TIMEOUT)

    # After FLOOD_BAR_SECONDS the address may come back.
    frozen_clock.now += 2
    await asyncio.sleep(1.2)  # the shared bar's expiry is the cache's own (real) clock
    back, _ = await from_address(token, "203.0.113.5")
    await back.send_to(text_data=json.dumps(move))
    assert version_of(await back.receive_from(timeout=TIMEOUT)) == 1
    await close_all(back, person)


async def test_an_address_opens_a_bounded_number_of_sockets_a_minute(isolated_cache, settings, frozen_clock):  # noqa: F811
    """A script that opens socket after socket (each opening is database work: the seat's registration and its
    first view) is refused past SOCKETS_OPENED_PER_MINUTE_PER_CLIENT in a minute, before any database work; other
    addresses keep their budget, and the next minute it may open again."""
    settings.SOCKETS_OPENED_PER_MINUTE_PER_CLIENT, settings.FLOOD_REFUSAL_DELAY_SECONDS = 3, 0
    _, (token, other_seat) = await new_match()
    opened = [(await from_address(token, "203.0.113.7"))[0] for _ in range(3)]
    assert await refused_from(token, "203.0.113.7")
    person, _ = await from_address(other_seat, "203.0.113.8")
    frozen_clock.now += 60
    again, _ = await from_address(token, "203.0.113.7")
    await close_all(*opened, person, again)


def test_expired_flood_bars_are_forgotten(settings, frozen_clock):  # noqa: F811
    """The process's bars hold only addresses still barred: flooding from many addresses, one after another, does not
    grow them without end."""
    from gameplay.web import socket_limits

    settings.FLOOD_BAR_SECONDS = 60
    for n in range(100):
        socket_limits.bar_client(f"2001:db8::{n}")
        frozen_clock.now += 1
    assert len(socket_limits._barred) == 60  # the last minute's bars
    assert socket_limits.barred_here("2001:db8::99") and not socket_limits.barred_here("2001:db8::0")
