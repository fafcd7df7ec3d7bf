"""One websocket consumer per match connection: an async shell around gameplay.web.seat_socket.SeatSocket.

Frames are JSON objects (the htmx websocket extension sends form values plus a
HEADERS entry):
  {"kind": "action", "action_id": "...", "version": 12, "text": "..."}  apply an action
  {"kind": "chat", "text": "..."}                                        post a chat line (refused with an error,
                                                                         changing nothing, when the match has no
                                                                         chat: Game.chat_enabled())
  {"kind": "select", "location": "c3"}                                   board click (this socket only)
  {"kind": "clear"}                                                      clear the board selection
  {"kind": "uhp", "text": "wS1 bQ-", "version": 12}                      a move typed in the game's notation
                                                                         (games whose spec declares typed_moves)
A select frame may carry "restart": true to start a new selection at that location instead of extending it.

Every frame is checked against a schema (gameplay.web.frames.parse_frame) before any handler runs; a refused frame
gets the error fragment, the socket stays open and nothing changes.

Limits per seat (gameplay.web.socket_limits, issue 13.6): at most MAX_SOCKETS_PER_SEAT open sockets (a new one closes
the oldest, which is told why), MAX_FRAMES_PER_SECOND frames over all of them (the first refused frame of a second
gets a short message, later ones nothing, and none renders a board; a socket past the limit on its own has its
further frames dropped before any thread or cache work), MAX_CHAT_PER_MINUTE chat lines (the service),
a selection of at most MAX_SELECTION clicks. Per client address (issue 37): a socket past FLOOD_FRAMES_PER_SECOND is
closed and its address barred for FLOOD_BAR_SECONDS, and at most SOCKETS_OPENED_PER_MINUTE_PER_CLIENT sockets open a
minute; a refused handshake costs no database work.

Why async (issue 14): a synchronous consumer runs every connection's work on one thread shared by the whole
process, so one socket's database round trips hold up all the others. Here the event loop only moves messages;
each piece of database and rendering work runs in one of a few worker threads (``off_loop``,
gameplay.web.socket_threads), which keep their database connections between frames.

A group message can be lost (channels_redis drops messages over its capacity; a send can fail after its retries),
so a socket quiet for SOCKET_CATCH_UP_SECONDS asks the event log whether it missed anything (``keep_up``).

The match's changes are drawn by one task per socket (``_draw_changes``), not in the message handler: the handler
only queues the message, so messages that arrive while the socket's work waits for a thread are drawn together,
once (SeatSocket.changes_arrived; issue 39, point 6), and a live match's frames never wait behind the drawing.

Presence (gameplay.web.presence, issue 16.1): a socket that opens or closes tells the match's other sockets
(``presence.changed``), and one heartbeat per process (``ProcessHeartbeat``) keeps every open socket's seat marked
as here and redraws the presence lists that changed without a word (a socket elsewhere that died).

A frame for a socket whose browser has just gone is dropped quietly (gameplay.web.closed_sockets, issue 37).
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections import deque

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http.cookie import parse_cookie

from gameplay.live import start as live
from gameplay.web import live_socket, socket_limits
from gameplay.web.closed_sockets import QuietWhenClosed
from gameplay.web.frames import KINDS, FrameRejected, parse_frame
from gameplay.web.rendering import error_fragment
from gameplay.web.seat_socket import SeatSocket, beat_all
from gameplay.web.socket_threads import socket_threads

logger = logging.getLogger(__name__)

__all__ = ["KINDS", "FrameRejected", "MatchConsumer", "parse_frame"]


def off_loop(func):
    """``func`` as a coroutine run in one of the socket threads: not on the event loop, and not all on the one
    thread Channels shares between every synchronous consumer, so sockets do not queue behind each other."""
    return SyncToAsync(func, thread_sensitive=False, executor=socket_threads)


class MatchConsumer(QuietWhenClosed, AsyncWebsocketConsumer):
    socket: SeatSocket | None = None
    keeper: asyncio.Task | None = None  # the catch-up loop (keep_up), while the socket is open
    drawer: asyncio.Task | None = None  # draws the queued changes (``_draw_changes``), while there are any
    busy: asyncio.Lock  # one piece of the socket's work at a time: Channels serialises messages, not keep_up
    quiet_since = 0.0  # event-loop time of the last frame sent to or received from the browser

    async def dispatch(self, message):
        """Channels' dispatch without its ``aclose_old_connections`` before every message. That runs on the one
        thread a server process shares for synchronous work, so every message of every socket queued there for a
        thread hop (a tenth of a daphne process's CPU at 200 matches, issue 14) only to tidy that thread's
        connections, which this consumer never uses: its database work runs in gameplay.web.socket_threads, and those
        threads tidy their own connections around each piece of work."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.busy = asyncio.Lock()
        self.frames = socket_limits.SocketWindow()
        # Group messages not drawn yet, oldest first: appended here on the event loop, taken in the socket's worker
        # thread (a deque's append and popleft are atomic).
        self.changes: deque[dict] = deque()
        token = self.scope["url_route"]["kwargs"].get("token", "")
        cookies = parse_cookie(dict(self.scope.get("headers", ())).get(b"cookie", b"").decode("latin-1"))
        self.client = client = (self.scope.get("client") or ("",))[0] or ""
        self.flooded = False
        if socket_limits.barred_here(client) or not await off_loop(socket_limits.may_open)(client):
            logger.info("match socket refused: its client address is over its limits (flood bar or openings)")
            # The refusal waits (on the event loop: nothing but a timer), so a script that reconnects as soon as it
            # is refused tries a few times a minute instead of a hundred times a second: every handshake costs the
            # server more than the frames it was barred for (measured: 3 ms of CPU each).
            await asyncio.sleep(settings.FLOOD_REFUSAL_DELAY_SECONDS)
            await self.close()  # before accept: the handshake is refused, before any database work
            return
        self.socket = await off_loop(SeatSocket.for_token)(token, self.channel_name, cookies, client)
        if self.socket is None:
            await self.close()  # before accept: the handshake is refused
            return
        self.socket.loop = asyncio.get_running_loop()
        await self.channel_layer.group_add(self.socket.group, self.channel_name)
        await self.accept()
        stale, html = await off_loop(self.socket.open)()
        for channel_name in stale:
            await self._evict(channel_name)
        await self.send(text_data=html)
        self.quiet_since = asyncio.get_running_loop().time()
        self.keeper = asyncio.create_task(self.keep_up())
        heartbeat.join(self)
        await self._presence_changed()
        await self._start_clock()

    async def _start_clock(self) -> None:
        """A person's socket of a live match starts its clock when nobody runs it (gameplay.live.start): when the
        socket opens, and with every input (the runner's process may have died)."""
        if not self.socket.live or self.socket.seat.is_agent:
            return
        claimed = await off_loop(live.claim)(self.socket.seat.match)
        if claimed is not None:
            await live.launch(self.socket.seat.match_id, *claimed)

    async def _presence_changed(self) -> None:
        """Tell the match's other sockets that this seat came or went, so their pages say so at once."""
        try:
            await self.channel_layer.group_send(self.socket.group, {"type": "presence.changed"})
        except Exception:  # their beats will notice
            logger.info("could not announce presence in match %s", self.socket.seat.match_id, exc_info=True)

    async def keep_up(self) -> None:
        """Every SOCKET_CATCH_UP_SECONDS without a frame either way, ask the event log whether this socket missed
        a change (SeatSocket.catch_up): the safety net under the group messages, which can be lost."""
        loop = asyncio.get_running_loop()
        every = settings.SOCKET_CATCH_UP_SECONDS
        while True:
            await asyncio.sleep(max(0.0, self.quiet_since + every - loop.time()))
            if loop.time() - self.quiet_since < every:
                continue  # a frame went by while it slept
            try:
                async with self.busy:
                    html = await off_loop(self.socket.catch_up)()
            except Exception:  # e.g. the database away for a moment: try again after the next quiet spell
                logger.exception("catching up the socket of match %s failed", self.socket.seat.match_id)
                html = None
            self.quiet_since = loop.time()
            await self._send(html)
            try:
                await self._start_clock()  # a live match whose runner died (its lease lapsed) gets a new one
            except Exception:
                logger.exception("starting the clock of match %s failed", self.socket.seat.match_id)

    async def _evict(self, channel_name: str) -> None:
        try:
            await self.channel_layer.send(channel_name, {"type": "socket.evict"})
        except Exception:  # e.g. that socket's process is gone with its channel: nothing left to close
            logger.info("could not tell an old socket of match %s to close", self.socket.seat.match_id, exc_info=True)

    async def disconnect(self, code):
        if self.keeper is not None:
            self.keeper.cancel()
        if self.drawer is not None:
            self.drawer.cancel()
        heartbeat.leave(self)
        if self.socket is None:
            return
        await self.channel_layer.group_discard(self.socket.group, self.channel_name)
        if self.socket.registered:
            await off_loop(self.socket.close)()
            await self._presence_changed()

    async def receive(self, text_data=None, bytes_data=None):
        verdict = self.frames.count_frame()
        if verdict is socket_limits.Verdict.DROP:
            return  # this socket alone is past its seat's limit this second (socket_limits.SocketWindow)
        if verdict is socket_limits.Verdict.CLOSE:
            await self._close_flooding()
            return
        self.quiet_since = asyncio.get_running_loop().time()
        if self.socket.live and live_socket.is_live_input(text_data):
            # A held key: only the cache, on a lane of its own, so it never waits behind the socket threads' work
            # (the clock's next decision point is a few frames away).
            html = await live_socket.on_input_thread(self.socket.receive)(text_data)
        else:
            async with self.busy:
                html = await off_loop(self.socket.receive)(text_data)
        await self._send(html)
        await self._start_clock()

    async def _close_flooding(self) -> None:
        """Close a flooding socket and bar its address (socket_limits): once, however many of its frames are still
        queued behind the one that crossed the line."""
        if self.flooded:
            return
        self.flooded = True
        logger.warning("closing a flooding socket of match %s and barring its client address for %s s",
                       self.socket.seat.match_id, settings.FLOOD_BAR_SECONDS)
        await off_loop(socket_limits.bar_client)(self.client)
        await self._send(error_fragment(socket_limits.FLOOD_MESSAGE))
        await self.close(code=socket_limits.FLOOD_CLOSE_CODE)

    async def match_changed(self, event):
        if self.socket.shows(event.get("seq")):
            return  # no thread needed to know it: e.g. the echo of this socket's own move
        self.changes.append(event)
        if self.drawer is None or self.drawer.done():
            self.drawer = asyncio.create_task(self._draw_changes())

    async def _draw_changes(self) -> None:
        """Draw the queued changes until none is left: each time, all that came in until the worker thread got to
        them (``_take_changes``), one at a time with the socket's other work and in order (``busy``). In a live
        match, at most one drawing every LIVE_REDRAW_SECONDS (gameplay.web.live_socket says why): the commits that
        come in meanwhile wait in the queue and are drawn together, as the newest state."""
        loop = asyncio.get_running_loop()
        while self.changes:
            started = loop.time()
            try:
                async with self.busy:
                    html = await off_loop(self._take_changes)()
            except Exception:  # the catch-up (keep_up) brings the page up to date from the log
                logger.exception("drawing a change of match %s failed", self.socket.seat.match_id)
                self.changes.clear()
                continue
            await self._send(html)
            if self.socket.live:
                await asyncio.sleep(max(0.0, started + live_socket.LIVE_REDRAW_SECONDS - loop.time()))

    def _take_changes(self) -> str | None:
        """In the worker thread: the changes queued until now, drawn (SeatSocket.changes_arrived)."""
        events = []
        while self.changes:
            events.append(self.changes.popleft())
        return self.socket.changes_arrived(events)

    async def live_frame(self, event):
        """One frame of a live match (gameplay.live.bout), as a binary message: the frame's number and the
        counter of this seat's input it reflects and the runner's wall clock in milliseconds when it sent the frame
        (three big-endian unsigned 32-bit integers, the clock modulo 2**32), then the PNG. No thread hop
        and no database: sixty of these a second must stay cheap."""
        seq = event["seqs"].get(str(self.socket.seat.index), 0)
        header = struct.pack(">III", event["frame"] % 2**32, seq, event.get("sent_ms", 0) % 2**32)
        await self.send(bytes_data=header + event["png"])

    async def presence_changed(self, event):
        async with self.busy:
            html = await off_loop(self.socket.presence_html)()
        await self._send(html)

    async def socket_evict(self, event):
        """A newer socket of this seat went past MAX_SOCKETS_PER_SEAT: this, the oldest, makes way."""
        self.socket.registered = False  # its row is gone already
        await self.send(text_data=error_fragment(socket_limits.EVICTED_MESSAGE))
        await self.close(code=socket_limits.EVICTED_CLOSE_CODE)

    async def _send(self, html: str | None) -> None:
        if html:
            self.quiet_since = asyncio.get_running_loop().time()
            await self.send(text_data=html)


class ProcessHeartbeat:
    """The presence heartbeat of a server process (gameplay.web.presence): every PRESENCE_BEAT_SECONDS, one piece of
    work off the event loop says that the seats of all its open sockets are here and reads everyone's beats
    (``seat_socket.beat_all``), then sends each socket whose presence list changed the new one. A socket whose
    process died stops beating with it, and the other processes' sockets show its seat gone after the timeout."""

    def __init__(self):
        self.consumers: dict[MatchConsumer, asyncio.AbstractEventLoop] = {}
        self.task: asyncio.Task | None = None

    def join(self, consumer: MatchConsumer) -> None:
        loop = asyncio.get_running_loop()
        # Sockets of another event loop are gone with it (a server has one loop; tests start one per test).
        self.consumers = {c: lp for c, lp in self.consumers.items() if lp is loop}
        self.consumers[consumer] = loop
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())

    def leave(self, consumer: MatchConsumer) -> None:
        self.consumers.pop(consumer, None)

    async def run(self) -> None:
        while self.consumers:
            await asyncio.sleep(settings.PRESENCE_BEAT_SECONDS)
            consumers = [c for c in self.consumers if c.socket is not None]
            if not consumers:
                continue
            try:
                frames = await off_loop(beat_all)([c.socket for c in consumers])
            except Exception:  # the cache away for a moment: beat again next time
                logger.exception("presence heartbeat of %s sockets failed", len(consumers))
                continue
            for consumer, html in zip(consumers, frames, strict=True):
                if html and consumer in self.consumers:
                    try:
                        await consumer._send(html)
                    except Exception:  # that socket closed meanwhile
                        logger.info("could not send a presence list", exc_info=True)


heartbeat = ProcessHeartbeat()

