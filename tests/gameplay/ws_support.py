"""Shared helpers for the websocket consumer tests: sockets, matches, and reading the HTML fragments."""
from __future__ import annotations

import asyncio
import json
import random
import re
from html.parser import HTMLParser

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from gameplay.models import Event, Match
from gameplay.project.asgi import application
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

ORIGIN = [(b"origin", b"http://localhost")]
TIMEOUT = 15  # seconds to wait for an expected frame: at 5 an agent turn on a loaded 2-core CI run once missed it
HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
FLASH_ERROR = 'class="flash error"'


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


PRESENCE_FRAME = '<div id="presence"'


def is_presence_only(html: str) -> bool:
    """A frame that only redraws the presence list (gameplay/partials/presence.html)."""
    return html.lstrip().startswith(PRESENCE_FRAME) and html.count('hx-swap-oob="true"') == 1


class SeatCommunicator(WebsocketCommunicator):
    """A match socket for tests about something other than presence: frames that only say someone came or went
    (sent to every socket when another opens or closes) are passed over. tests/gameplay/test_presence.py reads
    them with ``receive_from(..., presence=True)``."""

    async def receive_from(self, timeout=1, *, presence: bool = False):
        while True:
            html = await super().receive_from(timeout)
            if presence or not is_presence_only(html):
                return html

    async def receive_nothing(self, timeout=0.1, interval=0.01):
        """Whether nothing but presence frames arrives within ``timeout`` (those are dropped)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if await super().receive_nothing(max(0.0, deadline - loop.time()), interval):
                return True
            output = await self.receive_output()
            if not is_presence_only(output.get("text") or ""):
                self.output_queue.put_nowait(output)  # left for the test to read
                return False


async def open_socket(token: str, headers=ORIGIN) -> tuple[WebsocketCommunicator, bool]:
    comm = SeatCommunicator(application, f"/ws/play/{token}/", headers=headers)
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
