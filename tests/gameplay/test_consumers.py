"""gameplay.consumers.MatchConsumer over the real ASGI stack (origin check, URL router, channel layer).

Every test runs twice: on the in-memory channel layer and on channels_redis. The Redis run is
skipped only when REDIS_URL is unset outside CI; with CI=true (or REQUIRE_SERVICES=1) it uses
REDIS_URL or redis://127.0.0.1:6379/0 and fails if Redis is not there.
"""

from __future__ import annotations

import json
import os
import random
import re
import uuid
from html.parser import HTMLParser

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from gameplay import services
from gameplay.asgi import application
from gameplay.celery import app as celery_app
from gameplay.models import Event, Match
from gameplay.selectors import state_of
from gameplay.services import SeatController

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = [(b"origin", b"http://localhost")]
TIMEOUT = 5  # seconds to wait for a frame; generous for Redis on a busy CI machine
HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
FLASH_ERROR = 'class="flash error"'


def services_required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("REQUIRE_SERVICES") == "1"


# --- fixtures -------------------------------------------------------------------


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


# --- helpers --------------------------------------------------------------------


@database_sync_to_async
def new_match(controllers=(HUMAN, HUMAN), seed: int = 7) -> tuple[int, list[str]]:
    match = services.create_match("santorini", list(controllers), seed=seed)
    return match.pk, list(match.seats.order_by("index").values_list("token", flat=True))


@database_sync_to_async
def fingerprint(match_id: int) -> tuple:
    """What a rejected frame must leave untouched: event count, version, state (and status)."""
    match = Match.objects.get(pk=match_id)
    return Event.objects.filter(match_id=match_id).count(), match.version, match.state, match.status


@database_sync_to_async
def submit(match_id: int, seat: int, action_id: str) -> int:
    version = Match.objects.get(pk=match_id).version
    return services.submit_action(match_id, seat, action_id, expected_version=version).version


@database_sync_to_async
def legal_ids(match_id: int, seat: int) -> list[str]:
    return [a.id for a in state_of(Match.objects.get(pk=match_id)).legal_actions(seat)]


@database_sync_to_async
def play_to_end(match_id: int, seed: int = 3) -> Match:
    """Random legal play for both (human) seats, through the service, until the match is over."""
    rng = random.Random(seed)
    match = Match.objects.get(pk=match_id)
    while match.status == Match.Status.ACTIVE:
        state = state_of(match)
        seat = state.current_seats()[0]
        action = rng.choice(state.legal_actions(seat))
        match = services.submit_action(match_id, seat, action.id, expected_version=match.version)
    return match


async def open_socket(token: str, headers=ORIGIN) -> tuple[WebsocketCommunicator, bool]:
    comm = WebsocketCommunicator(application, f"/ws/play/{token}/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    return comm, connected


async def connect(token: str) -> tuple[WebsocketCommunicator, str]:
    """A connected socket and the view it received on connecting."""
    comm, connected = await open_socket(token)
    assert connected, "the consumer refused a valid seat token"
    return comm, await comm.receive_from(timeout=TIMEOUT)


async def receive_until(comm: WebsocketCommunicator, predicate, limit: int = 20) -> str:
    """Frames until one satisfies ``predicate`` (agents and group events can send several)."""
    for _ in range(limit):
        html = await comm.receive_from(timeout=TIMEOUT)
        if predicate(html):
            return html
    raise AssertionError("no matching frame received")


async def close_all(*comms: WebsocketCommunicator) -> None:
    for comm in comms:
        await comm.disconnect()


def version_of(html: str) -> int:
    return int(re.search(r'id="board"[^>]*data-version="(\d+)"', html).group(1))


class _Cells(HTMLParser):
    """Board cells by name: tag, class, aria-label and parsed hx-vals (None for plain cells)."""

    def __init__(self):
        super().__init__()
        self.cells: dict[str, dict] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-cell" in a and a.get("role") == "gridcell":
            vals = json.loads(a["hx-vals"]) if a.get("hx-vals") else None
            self.cells[a["data-cell"]] = {
                "tag": tag,
                "class": a.get("class", "").split(),
                "label": a.get("aria-label", ""),
                "vals": vals,
            }


def cells(html: str) -> dict[str, dict]:
    parser = _Cells()
    parser.feed(html)
    assert len(parser.cells) == 25, "expected the full 5x5 Santorini board"
    return parser.cells


def clickable(html: str, kind: str | None = None) -> dict[str, dict]:
    """Cells that are buttons, optionally only those whose click sends frames of ``kind``."""
    return {
        name: c
        for name, c in cells(html).items()
        if c["tag"] == "button" and (kind is None or (c["vals"] or {}).get("kind") == kind)
    }


def targets(html: str) -> dict[str, str]:
    """Cells whose click submits an action: cell name -> action id."""
    return {name: c["vals"]["action_id"] for name, c in clickable(html, "action").items() if "target" in c["class"]}


def shows_worker(html: str, cell: str, whose: str) -> bool:
    """Whether ``cell`` shows a worker; ``whose`` is "your" or "opponent's" as the seat sees it."""
    return f"{whose} worker" in cells(html)[cell]["label"]


# --- connecting -----------------------------------------------------------------


async def test_valid_token_receives_view_with_legal_cells(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, html1 = await connect(tok1)
    for html in (html0, html1):
        for region in ("board", "status", "actions", "flash", "chat-log"):
            assert f'id="{region}"' in html
        assert 'hx-swap-oob="true"' in html
        assert version_of(html) == 0
    # Seat 0 is on turn: every empty cell is a placement target, exactly its legal actions.
    legal = await legal_ids(match_id, 0)
    assert len(legal) == 25
    assert sorted(targets(html0).values()) == sorted(legal)
    assert "Your turn" in html0
    # Seat 1 waits: no clickable cells, no action buttons.
    assert clickable(html1) == {}
    assert "data-action-id" not in html1
    await close_all(comm0, comm1)


async def test_wrong_token_is_refused(layer):
    await new_match()
    comm, connected = await open_socket("not-a-real-token")
    assert connected is False
    comm, connected = await open_socket("x" * 100)  # over the token length limit
    assert connected is False


@pytest.mark.parametrize("path", ["/ws/play//", "/ws/play/"])
async def test_missing_token_is_refused(layer, path):
    comm = WebsocketCommunicator(application, path, headers=ORIGIN)
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
    except ValueError as err:
        # No route matches: the URL router raises before any accept, which daphne turns into a refused
        # handshake (HTTP 403); tests/integration/test_two_daphne.py checks that against a real server.
        assert "No route found" in str(err)
        connected = False
    assert connected is False


async def test_foreign_origin_is_refused(layer):
    _, (tok0, _) = await new_match()
    comm, connected = await open_socket(tok0, headers=[(b"origin", b"http://evil.example.com")])
    assert connected is False
    comm, connected = await open_socket(tok0, headers=[])  # no Origin header at all
    assert connected is False


# --- playing --------------------------------------------------------------------


async def test_legal_action_updates_state_and_both_seats(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)
    cell = "c3"
    frame = clickable(html0, "action")[cell]["vals"]
    assert frame == {"kind": "action", "action_id": f"place:{cell}", "version": 0}
    before = await fingerprint(match_id)

    await comm0.send_to(text_data=json.dumps(frame))

    update0 = await comm0.receive_from(timeout=TIMEOUT)
    update1 = await comm1.receive_from(timeout=TIMEOUT)
    events, version, state, _ = await fingerprint(match_id)
    assert version == 1 and events == before[0] + 1
    assert state["payload"]["workers"] == [[cell], []]
    for html, whose in ((update0, "your"), (update1, "opponent's")):
        assert FLASH_ERROR not in html
        assert version_of(html) == 1
        assert shows_worker(html, cell, whose)
    # Seat 0 places its second worker: the occupied cell is no longer a target.
    assert cell not in targets(update0) and len(targets(update0)) == 24
    await comm0.receive_nothing()
    await close_all(comm0, comm1)


async def test_move_by_seat_0_reaches_seat_1(layer):
    """Human vs human through the sockets only: placements, then a move and a build."""
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, html1 = await connect(tok1)
    views = {0: html0, 1: html1}
    comms = {0: comm0, 1: comm1}
    for seat, cell in ((0, "b2"), (0, "d4"), (1, "b4"), (1, "d2")):
        await comms[seat].send_to(text_data=json.dumps(clickable(views[seat], "action")[cell]["vals"]))
        views = {s: await comms[s].receive_from(timeout=TIMEOUT) for s in (0, 1)}
        assert shows_worker(views[1 - seat], cell, "opponent's")
    assert "Your turn" in views[0] and version_of(views[1]) == 4
    # Seat 0 selects worker b2 (this socket only), then moves it to c3.
    await comm0.send_to(text_data=json.dumps(clickable(views[0], "select")["b2"]["vals"]))
    selected = await comm0.receive_from(timeout=TIMEOUT)
    await comm1.receive_nothing()  # a selection is private to the socket
    await comm0.send_to(text_data=json.dumps(clickable(selected, "action")["c3"]["vals"]))
    views = {s: await comms[s].receive_from(timeout=TIMEOUT) for s in (0, 1)}
    assert shows_worker(views[1], "c3", "opponent's") and not shows_worker(views[1], "b2", "opponent's")
    assert "Move worker B2 → C3" in views[1]
    assert version_of(views[1]) == 5
    assert (await fingerprint(match_id))[1] == 5
    await close_all(comm0, comm1)


async def test_action_against_random_agent(layer, eager_celery):
    """Seat 1 is the random agent: after seat 0's second placement the agent places both workers."""
    match_id, (tok0, _) = await new_match((HUMAN, RANDOM))
    comm0, html0 = await connect(tok0)
    await comm0.send_to(text_data=json.dumps(clickable(html0, "action")["a1"]["vals"]))
    html = await comm0.receive_from(timeout=TIMEOUT)
    await comm0.send_to(text_data=json.dumps(clickable(html, "action")["e5"]["vals"]))
    html = await receive_until(comm0, lambda h: version_of(h) == 4)
    board = cells(html)
    assert sum("opponent's worker" in c["label"] for c in board.values()) == 2
    assert sum("your worker" in c["label"] for c in board.values()) == 2
    assert "Your turn" in html and clickable(html, "select")  # seat 0 now picks a worker to move
    assert (await fingerprint(match_id))[1] == 4
    await close_all(comm0)


async def test_select_shows_targets_for_that_worker(layer):
    match_id, (tok0, tok1) = await new_match()
    for seat, cell in ((0, "a1"), (0, "c3"), (1, "e5"), (1, "b3")):
        await submit(match_id, seat, f"place:{cell}")
    comm0, html = await connect(tok0)
    assert set(clickable(html, "select")) == {"a1", "c3"}  # move phase: first pick one of your workers
    assert targets(html) == {}
    before = await fingerprint(match_id)

    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "c3"}))
    html = await comm0.receive_from(timeout=TIMEOUT)
    moves = {a.split("-")[1]: a for a in await legal_ids(match_id, 0) if a.startswith("move:c3-")}
    assert moves and targets(html) == moves
    assert "selected" in cells(html)["c3"]["class"]
    assert all(a.startswith("move:c3-") for a in targets(html).values())

    # Clicking the selected worker again steps back; "clear" drops the selection.
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "c3"}))
    assert targets(await comm0.receive_from(timeout=TIMEOUT)) == {}
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "a1"}))
    html = await comm0.receive_from(timeout=TIMEOUT)
    assert targets(html) and all(a.startswith("move:a1-") for a in targets(html).values())
    await comm0.send_to(text_data=json.dumps({"kind": "clear"}))
    assert targets(await comm0.receive_from(timeout=TIMEOUT)) == {}
    assert await fingerprint(match_id) == before  # selecting changes nothing stored
    await close_all(comm0)


async def test_chat_reaches_both_seats(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    events, version, state, _ = await fingerprint(match_id)

    await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": "good luck <b>& have fun</b>"}))

    for comm in (comm0, comm1):
        html = await comm.receive_from(timeout=TIMEOUT)
        log = re.search(r'<ol id="chat-log".*?</ol>', html, re.S).group(0)
        assert "good luck &lt;b&gt;&amp; have fun&lt;/b&gt;" in log  # escaped, never markup
        assert "Player 1" in log
    after = await fingerprint(match_id)
    assert after[0] == events + 1 and after[1:3] == (version, state)  # chat is an event, not an action
    await close_all(comm0, comm1)


async def test_reconnect_and_second_tab_get_current_view(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    await comm0.send_to(text_data=json.dumps(clickable(html, "action")["b2"]["vals"]))
    await comm0.receive_from(timeout=TIMEOUT)

    tab2, html2 = await connect(tok0)  # a second tab of the same seat
    assert version_of(html2) == 1 and shows_worker(html2, "b2", "your")
    await comm0.disconnect()

    comm0, html = await connect(tok0)  # reconnect after a drop
    assert version_of(html) == 1 and shows_worker(html, "b2", "your")
    # Both of seat 0's sockets follow the next action.
    await comm0.send_to(text_data=json.dumps(clickable(html, "action")["d4"]["vals"]))
    for comm in (comm0, tab2):
        html = await comm.receive_from(timeout=TIMEOUT)
        assert version_of(html) == 2 and shows_worker(html, "d4", "your")
    comm1, html1 = await connect(tok1)
    assert version_of(html1) == 2 and "Your turn" in html1
    await close_all(comm0, tab2, comm1)


# --- rejected frames: an error fragment, nothing stored changes -----------------------


async def assert_rejected(comm, other, match_id: int, text_data: str, message: str | None = None) -> str:
    before = await fingerprint(match_id)
    await comm.send_to(text_data=text_data)
    reply = await comm.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in reply
    assert re.search(r'<div id="flash" class="flash error" hx-swap-oob="true"', reply)
    if message:
        assert message in reply
    assert await fingerprint(match_id) == before
    await other.receive_nothing()  # nothing was broadcast
    return reply


@pytest.mark.parametrize(
    "frame, message",
    [
        pytest.param("{not json", "not JSON", id="malformed-json"),
        pytest.param("[1, 2, 3]", "Malformed message", id="json-list"),
        pytest.param('"action"', "Malformed message", id="json-string"),
        pytest.param("null", "Malformed message", id="json-null"),
        pytest.param('{"kind": "resign"}', "Unknown message kind", id="unknown-kind"),
        pytest.param('{"action_id": "place:a1", "version": 0}', "Unknown message kind", id="no-kind"),
        pytest.param(
            '{"kind": "action", "action_id": "fly:a1", "version": 0}', "not a legal action", id="unknown-action"
        ),
        pytest.param('{"kind": "action", "action_id": "", "version": 0}', "malformed action id", id="empty-action"),
        pytest.param('{"kind": "action", "action_id": "place:a1"}', "version", id="no-version"),
        pytest.param('{"kind": "action", "action_id": "place:a1", "version": "x"}', "version", id="bad-version"),
        pytest.param('{"kind": "select", "location": 5}', "Malformed selection", id="bad-select"),
        pytest.param('{"kind": "chat", "text": "   "}', "empty message", id="empty-chat"),
        pytest.param('{"kind": "chat", "text": ["x"]}', "must be text", id="chat-not-text"),
    ],
)
async def test_malformed_frames_are_rejected(layer, frame, message):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    await assert_rejected(comm0, comm1, match_id, frame, message)
    await close_all(comm0, comm1)


async def test_action_by_seat_not_on_turn_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    frame = {"kind": "action", "action_id": "place:a1", "version": 0}  # legal for seat 0, not for seat 1
    reply = await assert_rejected(comm1, comm0, match_id, json.dumps(frame), "not Player 2")
    assert 'id="board"' in reply  # the seat's view is re-sent along with the error
    await close_all(comm0, comm1)


async def test_stale_version_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    comm1, _ = await connect(tok1)
    await submit(match_id, 0, "place:a1")  # e.g. from another tab: this socket's version 0 is now stale
    for comm in (comm0, comm1):
        await comm.receive_from(timeout=TIMEOUT)
    stale = clickable(html, "action")["c3"]["vals"]
    assert stale["version"] == 0
    reply = await assert_rejected(comm0, comm1, match_id, json.dumps(stale), "out of date")
    assert version_of(reply) == 1  # and the refreshed view comes with it
    future = {**stale, "version": 7}
    await assert_rejected(comm0, comm1, match_id, json.dumps(future), "out of date")
    await close_all(comm0, comm1)


async def test_action_after_the_end_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match(seed=5)
    match = await play_to_end(match_id)
    assert match.status == Match.Status.FINISHED
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)
    assert 'id="result"' in html0 and clickable(html0) == {}
    frame = {"kind": "action", "action_id": "place:a1", "version": match.version}
    await assert_rejected(comm0, comm1, match_id, json.dumps(frame), "the match is over")
    await assert_rejected(comm1, comm0, match_id, json.dumps(frame), "the match is over")
    await assert_rejected(comm0, comm1, match_id, json.dumps({"kind": "chat", "text": "gg"}), "the match is over")
    await close_all(comm0, comm1)


async def test_oversized_frame_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    text = "x" * 100_000
    frame = json.dumps({"kind": "chat", "text": text})
    assert len(frame) > django_settings.MAX_FRAME_BYTES
    await assert_rejected(comm0, comm1, match_id, frame, "too large")
    # A binary frame is not accepted either.
    before = await fingerprint(match_id)
    await comm0.send_to(bytes_data=b'{"kind": "chat", "text": "hi"}')
    assert FLASH_ERROR in await comm0.receive_from(timeout=TIMEOUT)
    assert await fingerprint(match_id) == before
    await close_all(comm0, comm1)


async def test_chat_over_max_length_is_rejected(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    text = "y" * 5_000
    frame = json.dumps({"kind": "chat", "text": text})
    assert len(text) > django_settings.MAX_CHAT_LENGTH and len(frame) <= django_settings.MAX_FRAME_BYTES
    reply = await assert_rejected(comm0, comm1, match_id, frame, f"longer than {django_settings.MAX_CHAT_LENGTH}")
    assert text not in reply
    await close_all(comm0, comm1)


async def test_unexpected_server_error_keeps_the_socket_and_changes_nothing(layer, monkeypatch):
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    comm1, _ = await connect(tok1)

    def broken_submit(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "submit_action", broken_submit)
    frame = clickable(html, "action")["c3"]["vals"]
    await assert_rejected(comm0, comm1, match_id, json.dumps(frame), "Something went wrong on the server")
    monkeypatch.undo()
    # The same socket still works afterwards.
    await comm0.send_to(text_data=json.dumps(frame))
    reply = await receive_until(comm0, lambda h: 'id="board"' in h)
    assert version_of(reply) == 1
    await close_all(comm0, comm1)
