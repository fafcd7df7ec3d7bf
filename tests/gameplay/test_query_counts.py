"""Database work per move, pinned (issue 14): applying a move through the service, and delivering it to both
seats' sockets (gameplay.web.seat_socket.SeatSocket, the work the async consumer runs off the event loop).

Counted without transaction control statements (BEGIN/COMMIT/SAVEPOINT), which SQLite's and PostgreSQL's
backends record differently. A change that adds a query per move makes these fail: raise a number only on purpose.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay.models import Event, Match
from gameplay.reads.selectors import match_group_name, state_of
from gameplay.web.seat_socket import SeatSocket
from gameplay.writes import services

pytestmark = pytest.mark.django_db

HUMAN = services.SeatController("human")
# Lock the match, find the next event seq, insert the event, save the match, read the move list's newest actions
# (once for every socket of the match: they draw it from the message, issue 39); then (after commit) whether an
# agent's seat must act now.
SUBMIT_QUERIES = 6
# The mover's socket: the service's queries but the last (no seat of this match is an agent's: the socket knows
# from the seats it read when it opened); it draws the committed match the service returned (gameplay.writes.committed).
MOVER_QUERIES = SUBMIT_QUERIES - 1
# The partner's socket on the group message, one commit behind: none, it draws from the message.
PARTNER_QUERIES = 0
# A socket that cannot draw from the message (it missed one, or the message carries no committed action): what
# changed, the match, the newest actions (the move list's, the last action among them; whether an agent keeps this
# seat waiting is read from the seats the socket already has).
CATCH_UP_QUERIES = 3
# A quiet socket asking whether it missed anything (SeatSocket.catch_up, every SOCKET_CATCH_UP_SECONDS): what
# changed since it last drew, and nothing more when nothing did.
QUIET_CHECK_QUERIES = 1


def counted(queries) -> list[str]:
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(control)]


@pytest.fixture
def match():
    return services.create_match("santorini", [HUMAN, HUMAN], seed=7, schedule_agents=False)


def open_sockets(match: Match) -> list[SeatSocket]:
    sockets = []
    for seat in match.seats.order_by("index"):
        socket = SeatSocket.for_token(seat.token, f"test-channel-{seat.index}")
        socket.open()
        sockets.append(socket)
    return sockets


@pytest.fixture
def group_messages(match):
    """The match group's messages, as a socket's consumer receives them from the channel layer."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(match_group_name(match.pk), channel)

    def next_message() -> dict:
        return async_to_sync(asyncio.wait_for)(layer.receive(channel), 5)

    return next_message


def first_legal(match_id: int, seat: int) -> str:
    return state_of(Match.objects.get(pk=match_id)).legal_actions(seat)[0].id


def test_applying_a_move_through_the_service(match):
    action = first_legal(match.pk, 0)
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(match.pk, 0, action, expected_version=0)
    assert len(counted(queries)) == SUBMIT_QUERIES, counted(queries)
    assert Match.objects.get(pk=match.pk).version == 1


def test_delivering_a_move_to_both_seats(match, group_messages):
    mover, partner = open_sockets(match)
    action = first_legal(match.pk, 0)
    frame = json.dumps({"kind": "action", "action_id": action, "version": 0})
    with CaptureQueriesContext(connection) as queries:
        mover_html = mover.receive(frame)
    assert len(counted(queries)) == MOVER_QUERIES, counted(queries)
    assert 'data-version="1"' in mover_html
    seq = Event.objects.filter(match_id=match.pk).order_by("-seq").values_list("seq", flat=True).first()
    assert mover.shows(seq)  # the group message's echo to the mover costs nothing (the consumer skips it)
    message = group_messages()
    assert message["seq"] == seq and message["committed"]["first_seq"] == seq
    with CaptureQueriesContext(connection) as queries:
        partner_html = partner.match_changed(message)
    assert len(counted(queries)) == PARTNER_QUERIES, counted(queries)
    assert 'data-version="1"' in partner_html
    assert partner_html == partner.refresh(board=True)  # the same view as read back from the database


def test_a_socket_that_missed_a_message_catches_up_from_the_log(match, group_messages):
    """Two moves, a socket gets only the second message: it is not one commit behind, so it reads what changed
    from the database and shows both moves."""
    _, partner = open_sockets(match)
    for version in (0, 1):
        seat = state_of(Match.objects.get(pk=match.pk)).current_seats()[0]
        services.submit_action(match.pk, seat, first_legal(match.pk, seat), expected_version=version)
    group_messages()  # the first move's message, lost on its way to this socket
    message = group_messages()
    with CaptureQueriesContext(connection) as queries:
        html = partner.match_changed(message)
    assert len(counted(queries)) == CATCH_UP_QUERIES, counted(queries)
    assert 'data-version="2"' in html and partner.shows(message["seq"])
    assert html == partner.refresh(board=True)


def test_a_quiet_socket_looks_with_one_query_and_catches_up_with_the_usual_ones(match):
    mover, partner = open_sockets(match)
    with CaptureQueriesContext(connection) as queries:
        assert partner.catch_up() is None
    assert len(counted(queries)) == QUIET_CHECK_QUERIES, counted(queries)
    mover.receive(json.dumps({"kind": "action", "action_id": first_legal(match.pk, 0), "version": 0}))
    with CaptureQueriesContext(connection) as queries:
        html = partner.catch_up()  # its group message was lost
    assert len(counted(queries)) == CATCH_UP_QUERIES, counted(queries)
    assert 'data-version="1"' in html


def test_a_message_without_a_committed_action_is_read_from_the_log(match):
    mover, partner = open_sockets(match)
    mover.receive(json.dumps({"kind": "action", "action_id": first_legal(match.pk, 0), "version": 0}))
    seq = Event.objects.filter(match_id=match.pk).order_by("-seq").values_list("seq", flat=True).first()
    with CaptureQueriesContext(connection) as queries:
        html = partner.match_changed({"type": "match.changed", "version": 1, "seq": seq})
    assert len(counted(queries)) == CATCH_UP_QUERIES, counted(queries)
    assert 'data-version="1"' in html


def test_a_move_frame_sends_no_chat_and_a_chat_line_only_itself(match):
    """Only the regions that changed: a move brings the board regions without the chat log; a chat line on a
    board that did not change brings that line alone, read with one more query."""
    mover, partner = open_sockets(match)
    mover_html = mover.receive(json.dumps({"kind": "action", "action_id": first_legal(match.pk, 0), "version": 0}))
    assert 'id="chat-log"' not in mover_html
    seq = Event.objects.filter(match_id=match.pk).order_by("-seq").values_list("seq", flat=True).first()
    partner.match_changed({"type": "match.changed", "version": 1, "seq": seq})
    first = services.post_message(match.pk, 0, "hello there")
    html = partner.match_changed({"type": "match.changed", "version": 1, "seq": first.seq})
    assert "hello there" in html and 'id="board"' not in html  # the log replaces "No messages yet."
    second = services.post_message(match.pk, 0, "second line")
    with CaptureQueriesContext(connection) as queries:
        html = partner.match_changed({"type": "match.changed", "version": 1, "seq": second.seq})
    assert len(counted(queries)) == 2, counted(queries)  # what changed, the new chat line
    assert "second line" in html and "hello there" not in html and 'id="board"' not in html


# --- where every seat acts at once (Pit; issue 39, point 6) ---------------------------------------------------------
# Pit: the service's queries but the agents' check, with one more for an overtaken view (which own and which earlier
# actions the log holds, one query), then what changed since the socket last drew.
OVERTAKEN_MOVER_QUERIES = MOVER_QUERIES + 1 + 1


@pytest.fixture
def pit_match():
    return services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=369, schedule_agents=False)


def pit_messages(match: Match):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(match_group_name(match.pk), channel)
    return lambda: async_to_sync(asyncio.wait_for)(layer.receive(channel), 5)


def test_messages_that_queued_up_are_drawn_once_from_the_messages(pit_match):
    """Two moves by others while this socket was busy: it draws the newest state once, with no query, the same
    page as read back from the database (both moves in its move list)."""
    next_message = pit_messages(pit_match)
    _, second, third = open_sockets(pit_match)
    services.submit_action(pit_match.pk, 0, "offer:3:wheat", expected_version=0)
    services.submit_action(pit_match.pk, 1, "offer:2:barley", expected_version=0)  # on its page of version 0
    messages = [next_message(), next_message()]
    with CaptureQueriesContext(connection) as queries:
        html = third.changes_arrived(messages)
    assert len(counted(queries)) == PARTNER_QUERIES, counted(queries)
    assert 'data-version="2"' in html and third.shows(messages[1]["seq"])
    assert html == third.refresh(board=True)
    assert third.changes_arrived(messages) is None  # shown already: nothing to draw
    # Not one run after the socket's view (it missed the first): read from the log, as any socket that missed one.
    with CaptureQueriesContext(connection) as queries:
        html = second.changes_arrived(messages[1:])
    assert len(counted(queries)) == CATCH_UP_QUERIES, counted(queries)
    assert html == second.refresh(board=True)


def test_a_move_that_lands_after_a_move_this_socket_has_not_drawn_is_drawn_from_what_was_committed(pit_match):
    """The mover's page was overtaken by another seat's move (its message not drawn yet): the committed match holds
    both moves, so the socket draws it without reading the match back, the page the database gives."""
    next_message = pit_messages(pit_match)
    first, _, _ = open_sockets(pit_match)
    services.submit_action(pit_match.pk, 1, "offer:2:barley", expected_version=0)
    frame = json.dumps({"kind": "action", "action_id": "offer:3:wheat", "version": 0})
    with CaptureQueriesContext(connection) as queries:
        html = first.receive(frame)
    assert len(counted(queries)) == OVERTAKEN_MOVER_QUERIES, counted(queries)
    assert 'data-version="2"' in html and "Nothing was changed" not in html
    assert html == first.refresh(board=True)
    assert first.shows(next_message()["seq"])  # the other seat's move is on the page already: its message is free


def test_a_chat_line_in_between_is_read_from_the_log(match):
    """Not only moves landed since the socket last drew (here a chat line): it reads what changed, and shows the
    line with the move."""
    mover, _ = open_sockets(match)
    services.post_message(match.pk, 1, "your move")
    html = mover.receive(json.dumps({"kind": "action", "action_id": first_legal(match.pk, 0), "version": 0}))
    assert 'data-version="1"' in html and "your move" in html
