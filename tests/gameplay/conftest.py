"""Fixtures for the websocket consumer tests."""

import os
import uuid

import pytest
from channels.layers import channel_layers

from gameplay.project.celery import app as celery_app
from gameplay.web.socket_threads import live_bout_threads, socket_threads
from tests.support.services import services_required


@pytest.fixture(params=["memory", "redis"])
async def layer(request, settings):
    """Point CHANNEL_LAYERS at the chosen backend (a fresh, isolated one per test)."""
    if request.param == "redis":
        url = os.environ.get("REDIS_URL", "")
        if not url:
            if not services_required():
                pytest.skip("REDIS_URL not set (set it, or CI=true, to run the consumer tests on channels_redis)")
            url = "redis://127.0.0.1:6379/0"
        config = {"hosts": [url], "prefix": f"test-consumers-{uuid.uuid4().hex[:12]}"}
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": config}}
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()  # setting_changed clears it too; be explicit
    backend = channel_layers["default"]
    expected = "RedisChannelLayer" if request.param == "redis" else "InMemoryChannelLayer"
    assert type(backend).__name__ == expected
    if request.param == "redis":
        # Fail here, clearly, when CI has no Redis, rather than as a timeout in the middle of a test.
        await backend.group_add("probe", await backend.new_channel())
    yield request.param
    if request.param == "redis":
        await backend.flush()
        await backend.close_pools()
    channel_layers.backends.clear()


@pytest.fixture
def eager_celery():
    """Agent turns run in-process (with REDIS_URL set, settings would queue them for a worker)."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def socket_threads_let_go():
    """The consumers' and the live clocks' worker threads keep database connections between frames: close them after
    each test, so that flushing or dropping the test database never waits for them."""
    yield
    socket_threads.close_connections()
    live_bout_threads.close_connections()
