"""Two daphne processes sharing one database and one Redis act as a cluster.

A human-vs-human Santorini match is created over HTTP on server A; seat 0 plays through a
websocket on A while seat 1 watches through a websocket on B. Seat 0's move must reach seat 1
across processes, through the Redis channel layer.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
import urllib.request
from html import unescape
from html.parser import HTMLParser
from http.cookiejar import CookieJar

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from tests.integration.http_support import open_new_match_form, socket_cookie, ws_url
from tests.support.live_server import daphne_server, migrate, server_env
from tests.support.services import services_required

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TIMEOUT = 10  # seconds for each websocket frame
REDIS_DB = 3  # a Redis database of its own, away from the default one other runs use


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        if not services_required():
            pytest.skip("REDIS_URL not set (two daphne processes need Redis for the channel layer)")
        pytest.fail("REDIS_URL must be set in CI for the two-daphne test")
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{REDIS_DB}"))


@pytest.fixture
def cluster(tmp_path, redis_url):
    """Two daphne servers on one SQLite file and one Redis database; yields their base URLs."""
    env = server_env(f"sqlite:///{tmp_path / 'cluster.sqlite3'}", redis_url, CELERY_TASK_ALWAYS_EAGER="1")
    migrate(env)
    logs = [tmp_path / "daphne-a.log", tmp_path / "daphne-b.log"]
    try:
        with daphne_server(env, log_path=logs[0]) as a, daphne_server(env, log_path=logs[1]) as b:
            yield a, b
    finally:
        for log in logs:  # shown by pytest when the test fails
            if log.exists():
                print(f"--- {log.name}\n{log.read_text(errors='replace')[-5000:]}")


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells: dict[str, dict[str, str]] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-cell" in a and a.get("role") == "gridcell":
            self.cells[a["data-cell"]] = {"tag": tag, **{k: v or "" for k, v in a.items()}}


def cells(html: str) -> dict[str, dict[str, str]]:
    parser = _Cells()
    parser.feed(html)
    return parser.cells


def create_match_over_http(base: str) -> tuple[str, str, str, dict[str, dict[str, str]]]:
    """POST the new-match form to ``base`` and accept its invite in a second browser; returns (seat 0 token,
    seat 1 token, seat 0's page, each seat token's websocket headers: the cookie of the browser holding it)."""
    jar, opener, form_url, csrf = open_new_match_form(base, "santorini", TIMEOUT)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": csrf, "seat_0": "you", "seat_1": "invite", "seed": "42"}
    ).encode()
    request = urllib.request.Request(form_url, data=data, headers={"Referer": form_url, "Origin": base})
    with opener.open(request, timeout=TIMEOUT) as response:  # follows the redirect to /play/<token>/
        final_url, page = response.geturl(), response.read().decode()
    own = re.fullmatch(rf"{re.escape(base)}/play/([^/]+)/", final_url)
    assert own, f"expected a redirect to the play page, got {final_url}"
    links = [unescape(u) for u in re.findall(r'<input readonly value="([^"]+)" aria-label="Invite link', page)]
    assert len(links) == 1, "the host's page should show one invite link"
    assert re.fullmatch(r"https?://[^/]+/invite/[^/]+/", links[0]), links[0]
    # The guest accepts the single-use invite in a browser of its own and lands on its seat's page.
    guest_jar = CookieJar()
    guest = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(guest_jar))
    with guest.open(links[0], timeout=TIMEOUT) as response:
        invite_page = response.read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', invite_page).group(1)
    accept = urllib.request.Request(
        links[0], data=urllib.parse.urlencode({"csrfmiddlewaretoken": csrf}).encode(),
        headers={"Referer": links[0], "Origin": base},
    )
    with guest.open(accept, timeout=TIMEOUT) as response:
        other = re.fullmatch(rf"{re.escape(base)}/play/([^/]+)/", response.geturl())
    assert other and other.group(1) != own.group(1)
    headers = {token: socket_cookie(cookie_jar, token) for token, cookie_jar in
               ((own.group(1), jar), (other.group(1), guest_jar))}
    return own.group(1), other.group(1), page, headers


def recv_until(ws, predicate, limit: int = 10) -> str:
    for _ in range(limit):
        html = ws.recv(timeout=TIMEOUT)
        if predicate(html):
            return html
    raise AssertionError("no matching frame received")


def test_move_on_server_a_reaches_seat_on_server_b(cluster):
    a, b = cluster
    token0, token1, page, held = create_match_over_http(a)
    assert 'ws-connect="/ws/play/' in page

    with ws_connect(ws_url(a, token0), origin=a, open_timeout=TIMEOUT, additional_headers=held[token0]) as ws0, \
            ws_connect(ws_url(b, token1), origin=b, open_timeout=TIMEOUT, additional_headers=held[token1]) as ws1:
        view0 = ws0.recv(timeout=TIMEOUT)
        view1 = ws1.recv(timeout=TIMEOUT)
        assert 'id="board"' in view0 and 'id="board"' in view1
        # A legal placement, read from seat 0's view like the browser would: a cell button whose hx-vals place.
        buttons = [c for c in cells(view0).values() if c["tag"] == "button" and "place:" in c.get("hx-vals", "")]
        assert len(buttons) == 25
        cell = buttons[12]
        frame = json.loads(cell["hx-vals"])
        assert frame["kind"] == "action" and frame["action_id"] == f"place:{cell['data-cell']}"

        ws0.send(json.dumps(frame))

        name = cell["data-cell"]
        update1 = recv_until(ws1, lambda h: "opponent's worker" in cells(h).get(name, {}).get("aria-label", ""))
        assert 'data-version="1"' in update1
        update0 = recv_until(ws0, lambda h: "your worker" in cells(h).get(name, {}).get("aria-label", ""))
        assert 'class="flash error"' not in update0

        # And back the other way: a chat line sent on B shows up on A.
        ws1.send(json.dumps({"kind": "chat", "text": "hello from server B"}))
        recv_until(ws0, lambda h: "hello from server B" in h)


def test_bad_origin_and_missing_token_are_refused_by_daphne(cluster):
    a, _ = cluster
    token0, _, _, held = create_match_over_http(a)
    with pytest.raises(InvalidStatus):
        ws_connect(ws_url(a, token0), origin="http://evil.example.com", open_timeout=TIMEOUT,
                   additional_headers=held[token0])
    with pytest.raises(InvalidStatus):  # the seat's link without the cookie of the browser holding the seat
        ws_connect(ws_url(a, token0), origin=a, open_timeout=TIMEOUT)
    with pytest.raises(InvalidStatus):
        ws_connect(ws_url(a, "no-such-token"), origin=a, open_timeout=TIMEOUT)
    with pytest.raises(InvalidStatus):
        ws_connect(a.replace("http://", "ws://", 1) + "/ws/play//", origin=a, open_timeout=TIMEOUT)
