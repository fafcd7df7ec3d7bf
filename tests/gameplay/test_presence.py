"""Who is at the table (issue 16.1): the match socket's presence list, on both channel layers (``layer``).

A page that opens or closes tells the other sockets at once (a group message); a socket that dies without closing
stops beating, and the others see its seat gone once PRESENCE_TIMEOUT_SECONDS have passed without a beat. The
timings are shortened here; tests/browser/test_presence_journeys.py runs the real ones in two browsers.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async

from gameplay.models import Event, Match
from gameplay.web.consumers import heartbeat
from gameplay.writes import absent_players
from tests.gameplay.ws_support import (
    FLASH_ERROR,
    HUMAN,
    RANDOM,
    TIMEOUT,
    clickable,
    close_all,
    connect,
    new_match,
    open_socket,
    receive_until,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def quick_presence(settings):
    settings.PRESENCE_BEAT_SECONDS = 0.3
    settings.PRESENCE_TIMEOUT_SECONDS = 2.0
    settings.PRESENCE_LEFT_AFTER_SECONDS = 4.0


def states(html: str) -> dict[int, str]:
    """Seat index -> data-state of the presence list in a frame."""
    block = html[html.index('<div id="presence"'):]
    block = block[: block.index("</div>")]
    return {int(i): s for i, s in re.findall(r'data-seat="(\d+)" data-state="([^"]+)"', block)}


async def next_presence(comm) -> dict[int, str]:
    while True:
        html = await comm.receive_from(timeout=TIMEOUT, presence=True)
        if '<div id="presence"' in html:
            return states(html)


async def test_the_first_frame_says_who_else_is_here(layer):
    match_id, tokens = await new_match()
    first, view = await connect(tokens[0])
    assert states(view) == {1: "not-yet"}
    assert "Player 2 has not joined yet" in re.sub(r"<[^>]+>", "", view)
    second, view = await connect(tokens[1])
    assert states(view) == {0: "here"}
    await close_all(first, second)


async def test_a_partner_who_comes_and_goes_is_shown_at_once(layer):
    match_id, tokens = await new_match()
    first, _ = await connect(tokens[0])
    second, _ = await connect(tokens[1])
    assert await next_presence(first) == {1: "here"}
    await second.disconnect()
    assert await next_presence(first) == {1: "gone"}  # without waiting for a beat to time out
    again, _ = await connect(tokens[1])
    assert await next_presence(first) == {1: "here"}
    await close_all(first, again)


async def test_a_second_tab_closing_does_not_make_the_seat_gone(layer):
    match_id, tokens = await new_match()
    first, _ = await connect(tokens[0])
    tab_a, _ = await connect(tokens[1])
    assert await next_presence(first) == {1: "here"}
    tab_b, _ = await connect(tokens[1])
    await tab_a.disconnect()
    assert await first.receive_nothing(timeout=0.5)  # seat 1 is still here (tab b): nothing to redraw
    await close_all(first, tab_b)


async def test_a_socket_that_dies_without_closing_is_gone_after_the_timeout(layer, quick_presence):
    """Seat 1's socket stops beating without closing, as one in a server process that died would: the process
    heartbeat forgets it (and it is never closed while the test looks)."""
    match_id, tokens = await new_match()
    first, view = await connect(tokens[0])
    second, _ = await connect(tokens[1])
    assert await next_presence(first) == {1: "here"}
    dead = next(c for c in list(heartbeat.consumers) if c.socket is not None and c.socket.seat.index == 1
                and c.socket.seat.match_id == match_id)
    heartbeat.leave(dead)
    loop = asyncio.get_running_loop()
    stopped = loop.time()
    assert await next_presence(first) == {1: "gone"}
    gone_after = loop.time() - stopped
    assert await next_presence(first) == {1: "left"}  # away for longer than PRESENCE_LEFT_AFTER_SECONDS
    left_after = loop.time() - stopped
    # The timeout (from its last beat, at most one beat before it stopped) plus at most one beat of the reader,
    # and slack for a busy CI machine.
    assert 2.0 - 0.3 <= gone_after < 2.0 + 0.3 + 1.5
    assert 4.0 - 0.3 <= left_after < 4.0 + 0.3 + 1.5
    await close_all(first, second)


async def test_agents_are_not_listed(layer):
    match_id, tokens = await new_match(controllers=(HUMAN, RANDOM))
    first, view = await connect(tokens[0])
    assert states(view) == {}
    assert re.search(r'<div id="presence"[^>]* hidden>', view)
    await close_all(first)


@database_sync_to_async
def take_over(match_id: int, seat: int) -> None:
    absent_players.hand_seat_to_agent(match_id, seat, "random", "participant left the round")


@database_sync_to_async
def seat_events(match_id: int) -> list[dict]:
    return list(Event.objects.filter(match_id=match_id, kind=Event.Kind.SEAT).values("seat", "payload"))


@database_sync_to_async
def match_version(match_id: int) -> int:
    return Match.objects.get(pk=match_id).version


async def test_an_agent_takes_over_a_seat_and_the_person_may_no_longer_move(layer, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    match_id, tokens = await new_match()
    stays, _ = await connect(tokens[1])
    await take_over(match_id, 0)  # seat 0 moves first: the agent takes its turn at once
    assert await seat_events(match_id) == [
        {"seat": 0, "payload": {"from": "human", "agent": "random", "reason": "participant left the round"}}
    ]
    # The page of the one who stays redraws, and the agent has made seat 0's first move.
    await receive_until(stays, lambda html: 'id="board"' in html and version_of(html) >= 1)
    # The person comes back on seat 0: the page opens, but a move is refused and changes nothing.
    back, view = await connect(tokens[0])
    version = await match_version(match_id)
    cells = clickable(view, "action")
    frame = next(iter(cells.values()))["vals"] if cells else {"kind": "action", "action_id": "x", "version": version}
    await back.send_to(text_data=json.dumps(frame))
    reply = await back.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in reply and "An agent plays this seat now" in reply
    await close_all(stays, back)


async def test_the_takeover_of_a_finished_match_changes_nothing(layer):
    match_id, tokens = await new_match()
    await database_sync_to_async(absent_players.abort_match)(match_id, "test")
    await take_over(match_id, 0)
    assert await seat_events(match_id) == []


async def test_a_refused_handshake_says_nothing_to_the_others(layer):
    match_id, tokens = await new_match()
    first, _ = await connect(tokens[0])
    comm, connected = await open_socket("not-a-token")
    assert not connected
    assert await first.receive_nothing(timeout=0.3)
    await close_all(first)
