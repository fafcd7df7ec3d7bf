"""Honest delivery, the service half (issue 13, point 5: "An applied move can be reported as 'nothing was changed'
when the notification after the commit fails (Redis cut), and the partner is never told").

The notification goes out after the commit. When the channel layer fails, ``submit_action`` and ``post_message``
still return their committed result, the failure is logged, and the send is retried so the partner hears of it.
The consumer half (the mover's own socket renders from the database) is in test_honest_delivery.py.
"""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer

from gameplay.models import Event, Match
from gameplay.reads.selectors import match_group_name, state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")


class FlakyLayer(InMemoryChannelLayer):
    """An in-memory layer whose next ``failures`` group sends raise, like Redis cut for a moment."""

    failures = 0
    attempts = 0

    async def group_send(self, group, message):
        type(self).attempts += 1
        if type(self).failures > 0:
            type(self).failures -= 1
            raise ConnectionError("channel layer unreachable")
        return await super().group_send(group, message)


@pytest.fixture
def flaky_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.FlakyLayer"}}
    channel_layers.backends.clear()
    FlakyLayer.failures = FlakyLayer.attempts = 0
    yield FlakyLayer
    channel_layers.backends.clear()


def listening_partner(match: Match) -> str:
    """A channel in the match's group, standing in for the partner's socket."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(match_group_name(match.pk), channel)
    return channel


def first_move(match: Match) -> tuple[int, str]:
    state = state_of(match)
    seat = state.current_seats()[0]
    return seat, state.legal_actions(seat)[0].id


def test_a_failed_notification_is_retried_and_the_partner_is_told(flaky_layer):
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=5)
    partner = listening_partner(match)
    flaky_layer.failures = 1

    seat, action = first_move(match)
    after = services.submit_action(match.pk, seat, action, expected_version=0)

    assert after.version == 1
    assert flaky_layer.attempts == 2
    message = async_to_sync(get_channel_layer().receive)(partner)
    last = Event.objects.filter(match=match).order_by("-seq").first()
    assert (message["type"], message["version"], message["seq"]) == ("match.changed", 1, last.seq)
    assert message["committed"]["seq"] == last.seq  # what the partner's socket draws the move from


def test_a_notification_that_never_gets_through_leaves_the_move_applied_and_logged(flaky_layer, caplog):
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=5)
    flaky_layer.failures = 100

    seat, action = first_move(match)
    with caplog.at_level(logging.WARNING, logger="gameplay.writes.announce"):
        after = services.submit_action(match.pk, seat, action, expected_version=0)

    assert after.version == 1
    match.refresh_from_db()
    assert match.version == 1
    assert Event.objects.filter(match=match, kind=Event.Kind.ACTION).count() == 1
    assert flaky_layer.attempts == len(services.NOTIFY_RETRY_DELAYS) + 1
    assert any("could not notify match" in r.getMessage() for r in caplog.records)


def test_chat_survives_a_failed_notification_too(flaky_layer, settings):
    match = services.create_match("gnomes", [HUMAN, HUMAN], seed=5)
    partner = listening_partner(match)
    flaky_layer.failures = 2

    event = services.post_message(match.pk, 0, "left at the fork")

    assert Event.objects.filter(pk=event.pk, payload__text="left at the fork").exists()
    message = async_to_sync(get_channel_layer().receive)(partner)
    assert message["seq"] == event.seq
