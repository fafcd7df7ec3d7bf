"""A socket that missed a group message catches up by itself (gameplay.web.consumers.MatchConsumer.keep_up).

channels_redis drops a group message when a process's queue is over capacity (issue 14: at 100 matches, 20
sockets waited 30 s before the benchmark client gave up and reconnected); a browser would have waited until the
person reloaded. Here the channel layer loses the one message of a move, on both layers (``layer``).
"""

from __future__ import annotations

import json

import pytest
from channels.layers import channel_layers

from gameplay.web.seat_socket import SeatSocket
from tests.gameplay.ws_support import TIMEOUT, clickable, close_all, connect, new_match, version_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def quick_catch_up(settings):
    settings.SOCKET_CATCH_UP_SECONDS = 0.3


def lose_group_messages(monkeypatch) -> list[dict]:
    """Make the layer drop every group message, as channels_redis does over capacity (no error raised); the
    list collects what was dropped."""
    layer = channel_layers["default"]
    lost: list[dict] = []

    async def dropped(group, message):
        lost.append(message)

    monkeypatch.setattr(layer, "group_send", dropped)
    return lost


def count_catch_ups(monkeypatch) -> list[str | None]:
    answers: list[str | None] = []
    original = SeatSocket.catch_up

    def counted(self):
        answers.append(original(self))
        return answers[-1]

    monkeypatch.setattr(SeatSocket, "catch_up", counted)
    return answers


async def test_a_lost_move_reaches_the_partner_without_a_reload(layer, quick_catch_up, monkeypatch):
    match_id, tokens = await new_match()
    mover, mover_view = await connect(tokens[0])
    partner, partner_view = await connect(tokens[1])
    assert version_of(partner_view) == 0
    lost = lose_group_messages(monkeypatch)
    cell = next(iter(clickable(mover_view, "action").values()))  # a first placement
    await mover.send_to(text_data=json.dumps(cell["vals"]))
    assert version_of(await mover.receive_from(timeout=TIMEOUT)) == 1
    assert len(lost) == 1 and lost[0]["seq"] == 2  # the partner was never told
    caught_up = await partner.receive_from(timeout=TIMEOUT)
    assert version_of(caught_up) == 1
    await close_all(mover, partner)


async def test_a_quiet_socket_that_missed_nothing_is_sent_nothing(layer, quick_catch_up, monkeypatch):
    answers = count_catch_ups(monkeypatch)
    match_id, tokens = await new_match()
    waiting, _ = await connect(tokens[1])
    assert await waiting.receive_nothing(timeout=1.2)
    assert len(answers) >= 2 and set(answers) == {None}  # it looked (one query each time) and found nothing
    await close_all(waiting)


async def test_a_busy_socket_does_not_look(layer, settings, monkeypatch):
    """The check runs only after a quiet spell: frames going by (here, board clicks) put it off."""
    # A quiet spell of 1 s against frames 0.15 s apart: a margin wide enough for a frame drawn slowly on a busy CI
    # machine (with 0.5 s, one run looked once).
    settings.SOCKET_CATCH_UP_SECONDS = 1.0
    answers = count_catch_ups(monkeypatch)
    match_id, tokens = await new_match()
    mover, view = await connect(tokens[0])
    for _ in range(8):  # 8 frames 0.15 s apart: never 1 s quiet
        await mover.send_to(text_data=json.dumps({"kind": "clear"}))
        await mover.receive_from(timeout=TIMEOUT)
        assert await mover.receive_nothing(timeout=0.15)
    assert answers == []
    await close_all(mover)


async def test_a_lost_chat_line_reaches_the_partner(layer, quick_catch_up, monkeypatch, settings):
    settings.MAX_CHAT_PER_MINUTE = 100
    match_id, tokens = await new_match()
    sender, _ = await connect(tokens[0])
    reader, _ = await connect(tokens[1])
    lose_group_messages(monkeypatch)
    await sender.send_to(text_data=json.dumps({"kind": "chat", "text": "are you there?"}))
    assert "are you there?" in await sender.receive_from(timeout=TIMEOUT)
    caught_up = await reader.receive_from(timeout=TIMEOUT)
    assert "are you there?" in caught_up and 'id="board"' not in caught_up  # the new line alone
    await close_all(sender, reader)
