"""gameplay.writes.committed: the applied action a group message carries, and when a socket may draw from it."""

from __future__ import annotations

import asyncio
import json

import msgpack
import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay.models import Match
from gameplay.reads.selectors import match_group_name, state_of
from gameplay.web.seat_socket import SeatSocket
from gameplay.writes import services
from gameplay.writes.committed import CommittedAction

pytestmark = pytest.mark.django_db

HUMAN = services.SeatController("human")


def play_first_move(match: Match) -> services.Applied:
    state = state_of(match)
    seat = state.current_seats()[0]
    return services.apply_action(match.pk, seat, state.legal_actions(seat)[0].id, expected_version=match.version)


def test_a_change_survives_the_redis_layers_serialisation_and_rebuilds_the_committed_match():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=3, schedule_agents=False)
    before = Match.objects.get(pk=match.pk)
    applied = play_first_move(match)
    # channels_redis packs messages with msgpack: what arrives is lists and dicts of plain values.
    message = msgpack.unpackb(msgpack.packb({"committed": applied.change.to_message()}, use_bin_type=True), raw=False)
    change = CommittedAction.from_message(message)
    assert change == applied.change
    change.apply_to(before)
    committed = Match.objects.get(pk=match.pk)
    for name in ("version", "state", "status", "winner", "scores", "turn_started_at", "finished_at", "updated_at"):
        assert getattr(before, name) == getattr(committed, name), name


@pytest.mark.parametrize(
    "message",
    [
        None,
        "committed",
        {},
        {"committed": None},
        {"committed": {"match_id": 1, "first_seq": 2, "seq": 2, "fields": {}, "last_action": {"payload": {}}}},
        {"committed": {"match_id": "1", "first_seq": 2, "seq": 2, "fields": {}, "last_action": {}}},
        {"committed": {"match_id": 1, "first_seq": 0, "seq": 2, "fields": {}, "last_action": {}}},
        {"committed": {"match_id": 1, "first_seq": 3, "seq": 2, "fields": {}, "last_action": {}}},
    ],
)
def test_a_message_without_a_whole_change_carries_none(message):
    assert CommittedAction.from_message(message) is None


def test_a_change_is_never_applied_to_another_match():
    one = services.create_match("santorini", [HUMAN, HUMAN], seed=3, schedule_agents=False)
    other = services.create_match("santorini", [HUMAN, HUMAN], seed=4, schedule_agents=False)
    applied = play_first_move(one)
    with pytest.raises(ValueError):
        applied.change.apply_to(Match.objects.get(pk=other.pk))
    # A socket of the other match given that message (it cannot happen through the groups) reads its own match.
    seat = other.seats.get(index=1)
    socket = SeatSocket.for_token(seat.token, "test-channel")
    socket.open()
    html = socket.match_changed(
        {"type": "match.changed", "seq": applied.change.seq, "committed": applied.change.to_message()}
    )
    assert html is None or 'data-version="0"' in html
    assert Match.objects.get(pk=other.pk).version == 0


def test_the_mover_and_its_partner_see_what_the_database_shows(settings):
    """Drawn from the change or read back, each seat's view of a whole game is the same, move after move."""
    settings.MAX_FRAMES_PER_SECOND = 10_000  # a whole game in a moment: far faster than the flood limit allows
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=11, schedule_agents=False)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(match_group_name(match.pk), channel)
    sockets = []
    for seat in match.seats.order_by("index"):
        socket = SeatSocket.for_token(seat.token, f"test-channel-{seat.index}")
        socket.open()
        sockets.append(socket)
    moves = 0
    while match.status == Match.Status.ACTIVE and moves < 300:
        state = state_of(match)
        seat = state.current_seats()[0]
        action = state.legal_actions(seat)[-1].id
        mover_html = sockets[seat].receive(
            json.dumps({"kind": "action", "action_id": action, "version": match.version})
        )
        partner = sockets[1 - seat]
        assert 'class="flash"' not in mover_html or "Nothing was changed" not in mover_html, mover_html
        message = async_to_sync(asyncio.wait_for)(layer.receive(channel), 5)
        partner_html = partner.match_changed(message)
        assert mover_html == sockets[seat].refresh(board=True)
        assert partner_html == partner.refresh(board=True)
        match.refresh_from_db()
        moves += 1
    assert match.status == Match.Status.FINISHED and moves > 10
