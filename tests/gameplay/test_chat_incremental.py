"""Chat sent incrementally (issue 13, point 6: "1,133 chat messages in 150 s made each frame 600 KB (344 MB sent to
the partner)"). A socket gets the chat log once, bounded to the newest CHAT_HISTORY_SHOWN lines, when it opens;
afterwards only the lines it has not sent yet, and a move never resends the chat. Both channel layers (``layer``).

- a new chat line's frame does not grow with the history: test_a_new_chat_line_is_sent_alone
- a move does not resend the chat: test_a_move_does_not_resend_the_chat
- the history shown is bounded (page and socket): test_the_history_shown_is_bounded
- Gnomes at Night keeps the chat in its state too; its board does not show it, so its frames stay bounded as
  well: test_gnomes_frames_do_not_carry_the_chat
"""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from tests.gameplay.ws_support import (
    HUMAN,
    TIMEOUT,
    clickable,
    close_all,
    connect,
    new_match,
    receive_until,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

LINE = "m{n:04d} " + "x" * 90  # a chat line of about 100 characters, numbered


@pytest.fixture
def chatty(settings):
    settings.MAX_CHAT_PER_MINUTE = 10_000  # these tests write long histories quickly on purpose


@database_sync_to_async
def post_lines(match_id: int, start: int, count: int, seat: int = 1) -> None:
    for n in range(start, start + count):
        services.post_message(match_id, seat, LINE.format(n=n))


def chat_numbers(html: str) -> list[str]:
    """The numbers of the lines in the chat log of this page or frame, in order."""
    log = re.search(r'<ol id="chat-log".*?</ol>', html, re.S)
    return re.findall(r"\bm\d{4}\b", log.group(0)) if log else []


async def new_line_frame(sender, receiver, text: str) -> str:
    await sender.send_to(text_data=json.dumps({"kind": "chat", "text": text}))
    await sender.receive_from(timeout=TIMEOUT)
    return await receiver.receive_from(timeout=TIMEOUT)


async def test_a_new_chat_line_is_sent_alone(layer, chatty):
    match_id, (tok0, tok1) = await new_match()
    await post_lines(match_id, 0, 3)
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    text = "first question"
    short_history = await new_line_frame(comm0, comm1, text)

    await post_lines(match_id, 3, 80)  # 8 KB more history
    for comm in (comm0, comm1):  # a socket catching up sends what it missed at once, and skips the rest
        await receive_until(comm, lambda html: "m0082" in html, limit=80)
        await comm.receive_nothing()
    long_history = await new_line_frame(comm0, comm1, "second question")

    for html, said in ((short_history, text), (long_history, "second question")):
        assert len(html.encode()) < 2048 + len(said), len(html)
        assert said in html and 'hx-swap-oob="beforeend:#chat-log"' in html
        assert 'id="board"' not in html  # chat changes no board
        assert "m0000" not in html  # nothing of the history
    assert abs(len(long_history) - len(short_history)) <= 16  # the frame does not grow with the history
    await close_all(comm0, comm1)


async def test_a_move_does_not_resend_the_chat(layer, chatty):
    match_id, (tok0, tok1) = await new_match()
    await post_lines(match_id, 0, 40)
    comm0, html0 = await connect(tok0)
    comm1, html1 = await connect(tok1)
    assert len(chat_numbers(html1)) == 40  # the whole (short) history when the socket opens

    await comm0.send_to(text_data=json.dumps(clickable(html0, "action")["c3"]["vals"]))
    for comm in (comm0, comm1):
        html = await comm.receive_from(timeout=TIMEOUT)
        assert version_of(html) == 1
        assert 'id="chat-log"' not in html and "m0000" not in html and "m0039" not in html
    await close_all(comm0, comm1)


async def test_the_history_shown_is_bounded(layer, chatty, settings):
    settings.CHAT_HISTORY_SHOWN = 5
    match_id, (tok0, tok1) = await new_match()
    await post_lines(match_id, 0, 8)
    comm0, html = await connect(tok0)
    assert chat_numbers(html) == ["m0003", "m0004", "m0005", "m0006", "m0007"]
    assert "Older messages are not shown here" in html

    page = await database_sync_to_async(lambda: Client().get(f"/play/{tok0}/").content.decode())()
    assert chat_numbers(page) == ["m0003", "m0004", "m0005", "m0006", "m0007"]
    assert "m0002" not in page and "Older messages are not shown here" in page
    await close_all(comm0)


@database_sync_to_async
def new_gnomes_match(messages: int) -> tuple[int, list[str]]:
    match = services.create_match("gnomes", [HUMAN, HUMAN], seed=5)
    for n in range(messages):
        services.post_message(match.pk, n % 2, (f"g{n:04d} " + "y" * 300))
    return match.pk, list(match.seats.order_by("index").values_list("token", flat=True))


@database_sync_to_async
def first_move(match_id: int) -> tuple[int, dict]:
    match = Match.objects.get(pk=match_id)
    state = state_of(match)
    seat = state.current_seats()[0]
    action = state.legal_actions(seat)[0].id
    return seat, {"kind": "action", "action_id": action, "version": match.version}


async def move_frames(messages: int) -> tuple[str, str]:
    match_id, tokens = await new_gnomes_match(messages)
    seat, frame = await first_move(match_id)
    mover, _ = await connect(tokens[seat])
    partner, _ = await connect(tokens[1 - seat])
    await mover.send_to(text_data=json.dumps(frame))
    frames = (await mover.receive_from(timeout=TIMEOUT), await partner.receive_from(timeout=TIMEOUT))
    await close_all(mover, partner)
    return frames


async def test_gnomes_frames_do_not_carry_the_chat(layer, chatty):
    quiet = await move_frames(0)
    chatty_frames = await move_frames(60)  # 18 KB of chat in the state and in the log
    for before, after in zip(quiet, chatty_frames, strict=True):
        assert version_of(after) == 1
        assert "g0000" not in after and "g0059" not in after
        assert len(after) - len(before) < 200  # the same board; at most "No messages yet" differs
