"""Frames per second per seat (issue 13, point 6: "10 sockets flooding clear frames raised another match's p50 from
52 ms to 1.2 s"; issue 37, point 5): past MAX_FRAMES_PER_SECOND over all a seat's sockets, the next frame is refused
once with a message and without rendering, the rest of the flood gets nothing and a move inside it is not applied;
the other seat keeps its own budget and the next second the seat plays again; frames of a socket already past its
limit are dropped before any counting. On the in-memory channel layer with the per-process cache and, in CI's phase
2, on channels_redis with the Redis cache (the ``layer`` fixture, tests/gameplay/conftest.py)."""

from __future__ import annotations

import json

import pytest

from tests.gameplay.socket_limits_support import frozen_clock, isolated_cache  # noqa: F401 (fixtures)
from tests.gameplay.ws_support import (
    FLASH_ERROR,
    TIMEOUT,
    clickable,
    close_all,
    connect,
    fingerprint,
    new_match,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_frame_flood_is_refused_without_rendering(isolated_cache, settings, frozen_clock):  # noqa: F811
    settings.MAX_FRAMES_PER_SECOND = 5
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    tab2, _ = await connect(tok0)  # the limit is per seat, over all its sockets
    comm1, _ = await connect(tok1)
    before = await fingerprint(match_id)

    for _ in range(3):
        await comm0.send_to(text_data=json.dumps({"kind": "clear"}))
    for _ in range(2):
        await tab2.send_to(text_data=json.dumps({"kind": "clear"}))
    for comm, n in ((comm0, 3), (tab2, 2)):
        for _ in range(n):
            assert 'id="board"' in await comm.receive_from(timeout=TIMEOUT)

    # The sixth frame of this second is refused with a message, once; the rest of the flood gets nothing,
    # and a move inside it is not applied.
    move = clickable(html, "action")["c3"]["vals"]
    await comm0.send_to(text_data=json.dumps({"kind": "clear"}))
    for _ in range(20):
        await comm0.send_to(text_data=json.dumps({"kind": "clear"}))
    await comm0.send_to(text_data=json.dumps(move))
    refused = await comm0.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in refused and "Too many messages" in refused and "nothing was changed" in refused
    assert 'id="board"' not in refused  # a refused frame renders nothing heavy
    await comm0.receive_nothing()
    await tab2.send_to(text_data=json.dumps({"kind": "clear"}))  # the seat's other socket is over it too
    await tab2.receive_nothing()
    await comm1.receive_nothing()
    assert await fingerprint(match_id) == before

    # The other seat has a budget of its own.
    await comm1.send_to(text_data=json.dumps({"kind": "clear"}))
    assert 'id="board"' in await comm1.receive_from(timeout=TIMEOUT)
    # The next second, seat 0 plays again.
    frozen_clock.now += 1
    await comm0.send_to(text_data=json.dumps(move))
    assert version_of(await comm0.receive_from(timeout=TIMEOUT)) == 1
    assert (await fingerprint(match_id))[1] == 1
    await close_all(comm0, tab2, comm1)


async def test_a_flooding_socket_past_its_limit_costs_no_more_counting(isolated_cache, settings, frozen_clock,  # noqa: F811
                                                                        monkeypatch):
    """Issue 37, point 5: frames over the limit are dropped before any work. Once a socket alone is past its seat's
    limit in a second, its further frames never reach the shared counter (a cache round trip each, Redis in
    production), a worker thread or a reply; the next second it is counted again."""
    from gameplay.web import rate_limits

    settings.MAX_FRAMES_PER_SECOND = 5
    settings.FLOOD_FRAMES_PER_SECOND = 1000  # dropped, not yet closed: test_a_flooding_socket_is_closed_...
    counted = []
    real_count = rate_limits.window_count

    def counting(key, **kwargs):
        counted.append(key)
        return real_count(key, **kwargs)

    monkeypatch.setattr(rate_limits, "window_count", counting)
    match_id, (tok0, _) = await new_match()
    comm, html = await connect(tok0)
    before = await fingerprint(match_id)
    move = clickable(html, "action")["c3"]["vals"]
    for _ in range(100):
        await comm.send_to(text_data=json.dumps({"kind": "clear"}))
    await comm.send_to(text_data=json.dumps(move))
    for _ in range(5):
        assert 'id="board"' in await comm.receive_from(timeout=TIMEOUT)
    assert "Too many messages" in await comm.receive_from(timeout=TIMEOUT)
    await comm.receive_nothing()
    seat_counts = [key for key in counted if key.startswith("ws-frames:")]
    assert len(seat_counts) == 6, len(seat_counts)  # the five allowed frames and the one told why, of 101
    assert await fingerprint(match_id) == before
    frozen_clock.now += 1
    await comm.send_to(text_data=json.dumps(move))
    assert version_of(await comm.receive_from(timeout=TIMEOUT)) == 1
    await close_all(comm)
