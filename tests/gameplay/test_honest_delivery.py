"""Honest delivery, the consumer half (issue 13, point 5: "An applied move can be reported as 'nothing was
changed' when the notification after the commit fails (Redis cut), and the partner is never told").

The mover's socket shows the match as committed, read back from the database right after its move, whatever
happens to the group message; a socket that reconnects gets the current state; echoes of a state a socket
already shows are skipped. The service half (retrying the notification) is in test_notify_retry.py.

- the mover sees its move although every group send fails: test_the_mover_sees_its_move_when_notifying_fails
- a failure after the commit is never reported as "nothing was changed":
  test_a_failure_after_the_commit_is_not_reported_as_nothing_changed
- the mover's own echo is skipped (one frame per move, chat too): test_the_mover_gets_one_frame_per_change
"""

from __future__ import annotations

import json
import os
import uuid

import pytest
from channels.layers import InMemoryChannelLayer, channel_layers
from channels_redis.core import RedisChannelLayer

from gameplay.writes import services
from tests.gameplay.ws_support import (
    FLASH_ERROR,
    TIMEOUT,
    clickable,
    close_all,
    connect,
    fingerprint,
    new_match,
    shows_worker,
    version_of,
)
from tests.support.services import services_required

pytestmark = pytest.mark.django_db(transaction=True)


class CutMemoryLayer(InMemoryChannelLayer):
    """The in-memory layer with its group sends failing, as when Redis is cut between commit and notification."""

    async def group_send(self, group, message):
        raise ConnectionError("channel layer unreachable")


class CutRedisLayer(RedisChannelLayer):
    async def group_send(self, group, message):
        raise ConnectionError("channel layer unreachable")


@pytest.fixture(params=["memory", "redis"])
def cut_layer(request, settings):
    """A channel layer whose every group send fails (sockets still join groups and get their own messages)."""
    if request.param == "redis":
        url = os.environ.get("REDIS_URL", "")
        if not url:
            if not services_required():
                pytest.skip("REDIS_URL not set (set it, or CI=true, to run on channels_redis)")
            url = "redis://127.0.0.1:6379/0"
        config = {"hosts": [url], "prefix": f"test-honest-{uuid.uuid4().hex[:12]}"}
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.CutRedisLayer", "CONFIG": config}}
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.CutMemoryLayer"}}
    channel_layers.backends.clear()
    yield request.param
    channel_layers.backends.clear()


def no_false_denial(html: str) -> None:
    assert "nothing was changed" not in html.lower()


async def test_the_mover_sees_its_move_when_notifying_fails(cut_layer, monkeypatch):
    monkeypatch.setattr(services, "NOTIFY_RETRY_DELAYS", (0.01,), raising=False)  # keep the retries short
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)

    await comm0.send_to(text_data=json.dumps(clickable(html0, "action")["c3"]["vals"]))

    reply = await comm0.receive_from(timeout=TIMEOUT)
    no_false_denial(reply)
    assert FLASH_ERROR not in reply
    assert version_of(reply) == 1 and shows_worker(reply, "c3", "your")
    assert (await fingerprint(match_id))[1] == 1
    # The partner missed the message; reconnecting (as the page does when its socket drops) shows the move.
    await comm1.disconnect()
    comm1, html1 = await connect(tok1)
    assert version_of(html1) == 1 and shows_worker(html1, "c3", "opponent's")
    # Chat as well: the sender sees its line at once.
    await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": "did you see that?"}))
    reply = await comm0.receive_from(timeout=TIMEOUT)
    assert "did you see that?" in reply and FLASH_ERROR not in reply
    await close_all(comm0, comm1)


async def test_a_failure_after_the_commit_is_not_reported_as_nothing_changed(layer, monkeypatch):
    """Should the service still raise after committing, the mover is shown the database's state."""
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)

    def notification_fails(*args, **kwargs):
        raise ConnectionError("channel layer unreachable")

    monkeypatch.setattr(services, "notify_match_changed", notification_fails)
    await comm0.send_to(text_data=json.dumps(clickable(html0, "action")["c3"]["vals"]))

    reply = await comm0.receive_from(timeout=TIMEOUT)
    no_false_denial(reply)
    assert version_of(reply) == 1 and shows_worker(reply, "c3", "your")
    assert (await fingerprint(match_id))[1] == 1
    await close_all(comm0, comm1)


async def test_the_mover_gets_one_frame_per_change(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)

    await comm0.send_to(text_data=json.dumps(clickable(html0, "action")["c3"]["vals"]))
    assert version_of(await comm0.receive_from(timeout=TIMEOUT)) == 1
    assert version_of(await comm1.receive_from(timeout=TIMEOUT)) == 1
    await comm0.receive_nothing()  # its own echo is skipped: it already shows version 1

    await comm1.send_to(text_data=json.dumps({"kind": "chat", "text": "nice"}))
    for comm in (comm1, comm0):
        assert "nice" in await comm.receive_from(timeout=TIMEOUT)
    await comm1.receive_nothing()
    await close_all(comm0, comm1)
