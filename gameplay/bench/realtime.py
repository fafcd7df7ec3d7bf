"""The realtime load client: N matches played over real websockets against a running server.

Every seat has one socket (``/ws/play/<token>/``, with the Origin of the page it would come from) and plays like
a person: when a frame shows its turn it waits about ``pace`` seconds, then sends a random legal action of the
page it shows then, with that page's version (where seats act at once, as in Pit, the page may have changed under
it meanwhile). The mover's round trip runs from that send to its own socket showing the move applied; delivery
from the same send to each other seat's socket showing it (gameplay.bench.deliveries). A finished match is
replaced by a new one so the load stays at N. Seats are spread over the given server URLs round-robin, so with
several daphne processes a move usually crosses processes (through the Redis channel layer) to reach the others.
Seats an agent plays (``NewMatch.agent_seats``) have no socket: the server's agent turns (Celery) play them, and
the client times each agent action from the moment its seat's socket began waiting for it.

The server is a black box: only the frames' data attributes (gameplay.bench.fragments) and, as a fallback when a
frame shows the turn without action ids, ``observation.json``. Matches are created, and the log is audited
afterwards, through the shared database (gameplay.bench.audit).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException
from websockets.typing import Origin

from gameplay.bench.audit import Send
from gameplay.bench.deliveries import SeatTimeline, resolve
from gameplay.bench.fragments import SeatFrame, parse_seat_frame
from gameplay.bench.measures import ServerCpu

ERROR_SAMPLES = 5  # distinct error messages kept for the report


@dataclass(frozen=True)
class BenchConfig:
    matches: int = 50
    duration: float = 60.0
    urls: tuple[str, ...] = ("http://127.0.0.1:8000",)
    pace: float = 1.0  # mean seconds a seat waits before moving; each wait is drawn from 0.5x-1.5x
    warmup: float = 5.0  # moves sent before this are played but not measured
    seed: int = 0
    ack_timeout: float = 30.0  # a socket silent this long while it waits for a move reconnects (counted)
    grace: float = 15.0  # after the run, how long in-flight moves may take to be acknowledged
    flood: int = 0  # extra sockets sending {"kind": "clear"} on matches of their own
    flood_rate: float = 100.0  # frames per second per flood socket
    sockets_per_seat: int = 4  # the server's MAX_SOCKETS_PER_SEAT: flood sockets beyond it go to another match
    # The local address the flood sockets connect from (e.g. 127.0.0.2): a flooding visitor is another client than
    # the people playing, and the server's per-address limits tell them apart by it. "" connects from the default.
    flood_address: str = ""


@dataclass(frozen=True)
class NewMatch:
    match_id: int
    tokens: tuple[str, ...]  # seat tokens in seat order
    agent_seats: frozenset[int] = frozenset()  # seats an agent plays (the server's agent turns): no client socket
    start_version: int = 0  # the match's version when its sockets connect (moves played before: --advance)


# Creates one human-vs-human match (blocking: it writes the shared database); called with a seed.
MatchFactory = Callable[[int], NewMatch]


def ws_endpoint(base_url: str, token: str) -> tuple[str, str]:
    """(websocket URL, Origin header) for a seat: the Origin of the match page on that server."""
    parts = urlsplit(base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws/play/{token}/", f"{parts.scheme}://{parts.netloc}"


@dataclass
class RunState:
    config: BenchConfig
    create: Callable[[int], asyncio.Future]  # async wrapper around the MatchFactory
    sends: list[Send] = field(default_factory=list)
    trackers: list[MatchTracker] = field(default_factory=list)
    match_ids: list[int] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    finished_matches: int = 0
    sending: bool = True
    stopped: bool = False  # the run is over: every loop ends, even one whose cancellation was swallowed
    measure_from: float = 0.0
    measure_until: float = float("inf")
    seats_started: int = 0
    flood_frames: int = 0
    flood_closed: int = 0  # flood sockets the server closed
    flood_refused: int = 0  # reconnections of the flood the server refused
    server_cpu: dict | None = None  # ServerCpu.stop() over the measurement window, when server pids were given
    # Matches with agent seats: for each agent action seen by a client's socket in the measured window, the time
    # from that socket showing the agent's turn (or the agent's previous action) to it showing the action.
    agent_replies_ms: list[float] = field(default_factory=list)
    agent_seats: dict[int, frozenset[int]] = field(default_factory=dict)  # by match id
    socket_seats: dict[int, int] = field(default_factory=dict)  # by match id: how many seats have a socket
    start_versions: dict[int, int] = field(default_factory=dict)  # by match id: NewMatch.start_version
    client_cpu: float = 0.0  # this process's CPU seconds over the measurement window

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        sample = f"{kind}: {detail}"[:200]
        if len(self.error_samples) < ERROR_SAMPLES and sample not in self.error_samples:
            self.error_samples.append(sample)

    def next_url(self) -> str:
        url = self.config.urls[self.seats_started % len(self.config.urls)]
        self.seats_started += 1
        return url

    def in_flight(self) -> int:
        return sum(1 for s in self.sends if s.acked_at is None and s.rejected is None)

    @property
    def other_seats(self) -> dict[int, int]:
        """By match id: how many seats besides a mover's have a socket (a move reaches all of them)."""
        return {match_id: count - 1 for match_id, count in self.socket_seats.items()}

    def undelivered(self) -> int:
        """Moves applied but not yet shown by every other seat's socket, counted once per seat (and resolving
        those that are)."""
        return sum(tracker.resolve() for tracker in self.trackers)


class MatchTracker:
    """The sends of one match, resolved as its seats' sockets show new versions."""

    def __init__(self, run: RunState, match_id: int):
        self.run = run
        self.match_id = match_id
        self.sends: list[Send] = []
        self.open: list[Send] = []  # neither acknowledged nor rejected yet
        self.timelines: dict[int, SeatTimeline] = {}  # by seat: when its sockets first showed each version
        run.trackers.append(self)

    def sent(self, seat: int, action_id: str, version: int) -> Send:
        now = time.monotonic()
        send = Send(self.match_id, seat, action_id, version, now, self.run.measure_from <= now < self.run.measure_until)
        self.run.sends.append(send)
        self.sends.append(send)
        self.open.append(send)
        return send

    def saw(self, seat: int, frame: SeatFrame, at: float) -> None:
        """Seat ``seat``'s socket showed ``frame`` (which has a version) at ``at``."""
        self.timelines.setdefault(seat, SeatTimeline()).saw(frame.version, at)
        pending = self.pending_of(seat)
        if pending is not None:
            if frame.own_move is None:  # no move list: a turn-based game's next version is the move
                if frame.version > pending.version:
                    pending.acked_at = at
            elif frame.own_move > pending.version:
                pending.acked_at, pending.applied_version = at, frame.own_move
        self.open = [s for s in self.open if s.rejected is None and s.acked_at is None]

    def pending_of(self, seat: int) -> Send | None:
        """The seat's oldest send not yet answered: its socket answers frames in the order they were sent."""
        return next((s for s in self.open if s.seat == seat and s.acked_at is None), None)

    def resolve(self) -> int:
        """Fill the deliveries of the applied moves; how many (move, seat) deliveries are still missing."""
        return resolve(self.sends, self.timelines)


class SeatClient:
    def __init__(self, run: RunState, tracker: MatchTracker, index: int, token: str, rng: random.Random):
        self.run, self.tracker, self.index, self.token, self.rng = run, tracker, index, token, rng
        self.base_url = run.next_url()
        self.version: int | None = None
        self.sent_version: int | None = None
        self.my_turn = False
        self.action_ids: tuple[str, ...] = ()
        self.finished = False
        self.fresh = True  # no frame yet on the current socket
        self.turn = asyncio.Event()
        self.plays_agents = bool(run.agent_seats.get(tracker.match_id))
        self.agent_since: float | None = None  # when this socket began waiting for an agent's action

    async def play(self) -> None:
        url, origin = ws_endpoint(self.base_url, self.token)
        while not self.finished and not self.run.stopped:
            try:
                async with connect(url, origin=Origin(origin), open_timeout=self.run.config.ack_timeout,
                                   close_timeout=2, max_size=None) as ws:
                    if await self._session(ws):
                        return
            except (OSError, TimeoutError, WebSocketException) as err:
                self.run.error("connection", f"{type(err).__name__}: {err}")
                await asyncio.sleep(1)

    async def _session(self, ws: ClientConnection) -> bool:
        """Play on one socket; True when the match is over, False to reconnect."""
        self.fresh = True
        mover = asyncio.create_task(self._move_loop(ws))
        try:
            # Also ends on run.stopped: asyncio.wait_for (Python 3.11) returns a frame that arrived as the task
            # was cancelled and drops the cancellation, and the run would then wait on this loop for ever.
            while not self.finished and not self.run.stopped:
                try:
                    raw = await asyncio.wait_for(ws.recv(), self.run.config.ack_timeout)
                except TimeoutError:
                    if self.tracker.pending_of(self.index) or (not self.my_turn and self.run.sending):
                        self.run.error("stall", f"no frame for {self.run.config.ack_timeout:.0f} s; reconnecting")
                        return False
                    continue
                if isinstance(raw, str):
                    self._on_frame(raw)
            return True
        finally:
            mover.cancel()

    def _on_frame(self, raw: str) -> None:
        at = time.monotonic()
        frame = parse_seat_frame(raw)
        if frame.error:
            pending = self.tracker.pending_of(self.index)
            if pending:
                pending.rejected = frame.error
                self.sent_version = None  # the board in the same frame shows where the match is: move again
            self.run.error("error_fragment", frame.error)
        if frame.version is None:
            return
        self.tracker.saw(self.index, frame, at)
        if self.fresh:  # the first view on a new socket: a move sent on the old one and not in it is gone
            self.fresh = False
            pending = self.tracker.pending_of(self.index)
            if pending:
                pending.rejected = "not applied before its socket closed"
                self.sent_version = None
                self.run.error("resent", f"a move of match {self.tracker.match_id} was sent again after reconnecting")
        if self.plays_agents:
            self._time_agent(frame.version, frame.my_turn or frame.finished, at)
        self.version, self.my_turn, self.action_ids = frame.version, frame.my_turn, frame.action_ids
        self.finished = frame.finished
        if self.my_turn and not self.finished and self.version != self.sent_version:
            self.turn.set()

    def _time_agent(self, version: int, my_turn: bool, at: float) -> None:
        """In a match against agents, a newer version seen while this seat waits is an agent's action (this seat
        only sends on its turn): its delay from the moment the wait began is one agent reply."""
        if self.agent_since is not None and self.version is not None and version > self.version:
            if self.run.measure_from <= self.agent_since < self.run.measure_until:
                self.run.agent_replies_ms.append((at - self.agent_since) * 1000)
            self.agent_since = None
        if not my_turn and self.agent_since is None:
            self.agent_since = at

    async def _move_loop(self, ws: ClientConnection) -> None:
        while True:
            await self.turn.wait()
            self.turn.clear()
            await asyncio.sleep(self.run.config.pace * self.rng.uniform(0.5, 1.5))
            # A person clicks on the page as it is when the click comes: where seats act at once (Pit), others'
            # moves redraw it meanwhile, and waiting for a page nobody changes while thinking would never act.
            version = self.version
            if not self.run.sending or self.finished or not self.my_turn:
                continue
            if version == self.sent_version or self.tracker.pending_of(self.index):
                continue  # a person waits for the page to show the click it made before clicking again
            actions = self.action_ids or await self._observed_actions(version)
            if not actions:
                self.run.error("no_actions", f"seat {self.index} of match {self.tracker.match_id} has no legal action")
                continue
            action_id = self.rng.choice(actions)
            self.sent_version = version
            self.tracker.sent(self.index, action_id, version)
            try:
                await ws.send(json.dumps({"kind": "action", "action_id": action_id, "version": version}))
            except ConnectionClosed:
                return  # the reader sees the socket closed and reconnects

    async def _observed_actions(self, version: int) -> tuple[str, ...]:
        """The legal action ids from observation.json, for a frame that showed the turn but no action ids."""
        url = f"{self.base_url.rstrip('/')}/play/{self.token}/observation.json"

        def fetch() -> dict:
            with urllib.request.urlopen(url, timeout=self.run.config.ack_timeout) as response:
                return json.load(response)

        try:
            data = await asyncio.to_thread(fetch)
        except (OSError, ValueError) as err:
            self.run.error("observation", str(err))
            return ()
        return tuple(data.get("legal_actions", [])) if data.get("version") == version else ()


async def play_slot(run: RunState, slot: int, rng: random.Random) -> None:
    """Keep one match going: play it to the end, then start another, until the run stops sending."""
    await asyncio.sleep(rng.uniform(0, min(run.config.warmup, 3.0)))  # no connection storm at the start
    while run.sending:
        try:
            match = await run.create(rng.randrange(2**31))
        except Exception as err:  # e.g. the database busy past its timeout: the slot tries again
            run.error("create_match", f"{type(err).__name__}: {err}")
            await asyncio.sleep(1)
            continue
        run.match_ids.append(match.match_id)
        run.agent_seats[match.match_id] = match.agent_seats
        run.start_versions[match.match_id] = match.start_version
        tracker = MatchTracker(run, match.match_id)
        seats = [
            SeatClient(run, tracker, index, token, random.Random(rng.random()))
            for index, token in enumerate(match.tokens)
            if index not in match.agent_seats
        ]
        run.socket_seats[match.match_id] = len(seats)
        await asyncio.gather(*(seat.play() for seat in seats))
        run.finished_matches += 1


async def flood_socket(run: RunState, token: str) -> None:
    """Send {"kind": "clear"} at flood_rate, reading whatever comes back, until cancelled. Like a script that wants
    to do harm, it connects again (every FLOOD_RETRY_SECONDS) whenever the server closes the socket or refuses it."""
    url, origin = ws_endpoint(run.next_url(), token)
    frame = json.dumps({"kind": "clear"})
    local = {"local_addr": (run.config.flood_address, 0)} if run.config.flood_address else {}
    while not run.stopped:
        try:
            async with connect(url, origin=Origin(origin), close_timeout=2, max_size=None, **local) as ws:
                reader = asyncio.create_task(_drain(ws))
                try:
                    while True:
                        await ws.send(frame)
                        run.flood_frames += 1
                        await asyncio.sleep(1 / run.config.flood_rate)
                finally:
                    reader.cancel()
        except ConnectionClosed:
            run.flood_closed += 1
        except InvalidStatus:
            run.flood_refused += 1  # the handshake was refused
        except (OSError, TimeoutError, WebSocketException) as err:
            run.error("flood_connection", f"{type(err).__name__}: {err}")
        await asyncio.sleep(FLOOD_RETRY_SECONDS)


FLOOD_RETRY_SECONDS = 0.1


async def _drain(ws: ClientConnection) -> None:
    async for _ in ws:
        pass


async def run_bench(
    config: BenchConfig, create: Callable[[int], asyncio.Future], server_pids: tuple[int, ...] = ()
) -> RunState:
    """Play for warmup + duration seconds, then let in-flight moves land (up to ``grace``); returns the record.
    The CPU time of ``server_pids`` (and their children) and of this process is read over the measured part."""
    rng = random.Random(config.seed)
    start = time.monotonic()
    run = RunState(
        config, create, measure_from=start + config.warmup, measure_until=start + config.warmup + config.duration
    )
    server = ServerCpu(server_pids) if server_pids else None
    if server:
        server.start()  # refuses a pid that is no process, before anything is played
    tasks = [asyncio.create_task(play_slot(run, slot, random.Random(rng.random()))) for slot in range(config.matches)]
    if config.flood:
        tasks += await _start_flood(run, rng)
    await asyncio.sleep(max(0.0, run.measure_from - time.monotonic()))
    client_cpu = time.process_time()
    if server:
        server.start()
    await asyncio.sleep(max(0.0, run.measure_until - time.monotonic()))
    run.client_cpu = time.process_time() - client_cpu
    run.server_cpu = server.stop() if server else None
    run.sending = False
    deadline = time.monotonic() + config.grace
    while (run.in_flight() or run.undelivered()) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    run.undelivered()  # the deliveries of the moves acknowledged last
    run.stopped = True
    pending = set(tasks)
    while pending:  # cancelled again until done: a cancellation can be swallowed (see SeatClient._session)
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=1)
    return run


async def _start_flood(run: RunState, rng: random.Random) -> list[asyncio.Task]:
    tokens: list[str] = []
    while len(tokens) < run.config.flood:
        match = await run.create(rng.randrange(2**31))
        run.match_ids.append(match.match_id)
        tokens += [t for t in match.tokens for _ in range(run.config.sockets_per_seat)]
    return [asyncio.create_task(flood_socket(run, token)) for token in tokens[: run.config.flood]]
