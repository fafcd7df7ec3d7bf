"""Issue 37, point 6: small answers that were 500s or too generous, each refused cleanly now."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from gameplay.project.asgi import application

pytestmark = pytest.mark.django_db

ORIGIN = [(b"origin", b"http://localhost")]


@pytest.mark.parametrize("path", ["/", "/matches/", "/ratings/", "/games/santorini/new/", "/s/nope/"])
def test_trace_track_and_connect_are_refused_everywhere(client, path):
    for method in ("TRACE", "TRACK", "CONNECT"):
        response = client.generic(method, path)
        assert response.status_code == 405, (method, path)
        assert b"csrftoken" not in response.content
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("run", ["9" * 5000, "²", "12345678901234567890"])
def test_an_absurd_pinned_run_pins_nothing(client, run):
    assert client.get("/ratings/", {"run": run}).status_code == 200
    assert client.get("/ratings/ratings.json", {"run": run}).status_code == 404  # nothing stored: no run to give


@pytest.mark.parametrize("path", ["/ws/", "/ws/play/abc", "/ws/other/", "/elsewhere/"])
async def test_a_websocket_on_an_unrouted_path_is_refused_not_crashed(path):
    comm = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await comm.connect(timeout=5)
    assert connected is False
