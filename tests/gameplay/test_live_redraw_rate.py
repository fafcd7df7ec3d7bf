"""A match socket draws its queued changes through one queue (``MatchConsumer._draw_changes``): in a live match at
most one drawing every LIVE_REDRAW_SECONDS, the commits that came in meanwhile drawn together as the newest; in a
turn-based match each change as soon as the socket's thread is free."""

from __future__ import annotations

import asyncio
from collections import deque

from gameplay.web import live_socket
from gameplay.web.consumers import MatchConsumer


class FakeSeat:
    match_id = 1


class FakeSocket:
    """Stands in for SeatSocket: records which commits each drawing covered."""

    def __init__(self, live: bool):
        self.live = live
        self.seat = FakeSeat()
        self.drawings: list[list[int]] = []

    def shows(self, seq) -> bool:
        return False

    def changes_arrived(self, events) -> str:
        self.drawings.append([event["seq"] for event in events])
        return f"<div>{events[-1]['seq']}</div>"


def consumer_of(socket: FakeSocket) -> tuple[MatchConsumer, list[str]]:
    consumer = MatchConsumer.__new__(MatchConsumer)  # its drawing only: no connection, no channel layer
    consumer.socket, consumer.busy, consumer.changes, consumer.drawer = socket, asyncio.Lock(), deque(), None
    sent: list[str] = []

    async def send(text_data=None, bytes_data=None):
        sent.append(text_data)

    consumer.send = send
    return consumer, sent


async def commits_every(consumer: MatchConsumer, count: int, seconds: float) -> None:
    for seq in range(1, count + 1):
        await consumer.match_changed({"type": "match.changed", "seq": seq})
        await asyncio.sleep(seconds)
    while consumer.drawer is not None and not consumer.drawer.done():
        await asyncio.sleep(0.01)


async def test_a_live_socket_draws_a_burst_of_commits_a_few_times_and_ends_on_the_newest(monkeypatch):
    monkeypatch.setattr(live_socket, "LIVE_REDRAW_SECONDS", 0.2)
    socket = FakeSocket(live=True)
    consumer, sent = consumer_of(socket)
    await commits_every(consumer, count=20, seconds=0.02)  # 20 commits in about 0.4 s
    assert 2 <= len(socket.drawings) <= 5  # about one every 0.2 s, not 20
    assert [seq for drawing in socket.drawings for seq in drawing] == list(range(1, 21))  # every commit, in order
    assert sent[-1] == "<div>20</div>"  # the last drawing shows the newest commit


async def test_a_turn_based_socket_draws_each_commit_without_waiting(monkeypatch):
    monkeypatch.setattr(live_socket, "LIVE_REDRAW_SECONDS", 0.2)
    socket = FakeSocket(live=False)
    consumer, sent = consumer_of(socket)
    await commits_every(consumer, count=10, seconds=0.05)
    assert len(socket.drawings) == 10 and sent[-1] == "<div>10</div>"
