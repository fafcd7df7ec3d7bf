"""What one open match websocket knows and does, in plain synchronous code (database, services, rendering).

gameplay.web.consumers.MatchConsumer is the async shell around it: it runs each method of a SeatSocket in a worker
thread (never on the event loop, and not all on one shared thread) and sends the HTML the method returns. One
consumer handles one message at a time, so a SeatSocket is never used by two threads at once.

What a socket sends: its seat's whole view when it opens (the chat log bounded to CHAT_HISTORY_SHOWN lines); then,
when the match changes, the board regions if more than chat changed, and only the chat lines it has not sent yet.
The mover's own socket renders the committed match itself after a successful action or chat line, never waiting
for the group message (which may fail, issue 13.5); a group message whose "seq" this socket already rendered is
skipped. Group messages that queued up while the socket was busy are drawn together, once (``changes_arrived``).

Work per move (issue 14): the socket keeps its seat and the seats' names from when it opened (they never change).
When it is exactly one commit behind an applied action, it draws that action from what the service committed
(gameplay.writes.committed: the mover from the service's answer, the other sockets from the group message) without a
query. Otherwise it learns what changed since it last drew from one grouped query on the event log, and reads the
chat only when a chat line is new. tests/gameplay/test_query_counts.py pins the number of queries.

Where seats act at once (Pit, issue 39 point 6), the mover's action often lands after another seat's move that this
socket has not drawn yet; if only moves came in between, the committed match the service returned holds them all,
and the socket draws from it as from a message, without reading the match back (``_submit``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from contextlib import nullcontext

from django.conf import settings

from gameplay.capabilities.live import plays_live
from gameplay.live import inputs as live_inputs
from gameplay.models import Event, Match, Seat
from gameplay.reads import selectors
from gameplay.web import presence, socket_limits
from gameplay.web.frames import FrameRejected, parse_frame
from gameplay.web.rendering import (
    chat_append_fragment,
    chat_log_fragment,
    error_fragment,
    presence_fragment,
    seat_fragments,
)
from gameplay.writes import seat_claims, services
from gameplay.writes.announce import sent_from
from gameplay.writes.committed import CommittedAction

logger = logging.getLogger(__name__)

# Events a committed action's match accounts for by itself: the board is all they change (no chat line, no seat).
MOVES_ONLY = frozenset({Event.Kind.ACTION, Event.Kind.END})

SERVER_ERROR = "Something went wrong on the server. Please try again, or reload the page if it persists."


class SeatSocket:
    def __init__(self, seat: Seat, channel_name: str, client: str = ""):
        self.seat = seat
        self.channel_name = channel_name
        self.client = client  # the client's address, for the per-address frame limit (socket_limits)
        self.group = selectors.match_group_name(seat.match_id)
        self._read_seats()
        self.selection: tuple[str, ...] = ()
        self.rendered_seq = 0  # newest event the board regions on this socket account for
        self.chat_seq = 0  # newest message event the chat log on this socket accounts for
        self.chat_lines_shown = 0
        self.chat_enabled = False
        self.chat_in_state = False
        self.registered = False  # whether this socket counts among its seat's open sockets (socket_limits)
        self.presence_shown: tuple | None = None  # what the presence list on the page says (gameplay.web.presence)
        self.live = plays_live(selectors.game_of(seat.match), self.seats)  # frames stream (gameplay.live)
        # The event loop of the consumer around this socket, if any: the services this socket calls hand their
        # group messages to it instead of waiting for it to send them (gameplay.writes.announce.sent_from).
        self.loop: asyncio.AbstractEventLoop | None = None

    def _read_seats(self) -> None:
        # Read once per socket: seats change only when an agent takes over a seat whose person left (an event of
        # kind SEAT, after which ``refresh`` reads them again).
        self.seats = list(self.seat.match.seats.all())
        self.names = {s.index: s.display_name for s in self.seats}
        # Whether a move here can hand the turn to an agent: if no seat is one, the service need not look.
        self.agents_play = any(s.is_agent for s in self.seats)
        fresh = next((s for s in self.seats if s.pk == self.seat.pk), self.seat)
        fresh.match = self.seat.match  # already read; the views read the match through the seat
        self.seat = fresh

    @classmethod
    def for_token(cls, token: str, channel_name: str, cookies: Mapping[str, str] | None = None,
                  client: str = "") -> SeatSocket | None:
        """The socket of a seat link, or None (the handshake is refused) for an unknown link or a seat that
        another browser holds (seat_claims: the handshake must carry the holder's cookie)."""
        seat = selectors.seat_by_token(token)
        if seat is None or not seat_claims.cookies_hold(cookies or {}, seat):
            return None
        return cls(seat, channel_name, client)

    # --- lifecycle ------------------------------------------------------------------

    def open(self) -> tuple[list[str], str]:
        """Register this socket (the handshake is accepted): the channel names of this seat's sockets that must
        now close (socket_limits), and the first frame, the seat's whole view."""
        stale = socket_limits.register_socket(self.seat, self.channel_name)
        self.registered = True
        presence.beat(self.seat)
        services.mark_joined(self.seat)
        return stale, self.view_html() + (self.presence_html(force=True) or "")

    def close(self) -> None:
        if self.registered:
            self.registered = False
            if not socket_limits.unregister_socket(self.seat, self.channel_name):
                presence.mark_gone(self.seat)  # its last socket: gone now, not when its beats time out

    # --- presence (gameplay.web.presence) -----------------------------------------------------------

    def presence_html(self, *, force: bool = False, known: Mapping[str, dict] | None = None) -> str | None:
        """The presence list when it differs from what the page shows (or ``force``), else None. ``known``: the
        beats ``beat_all`` read for every socket of the process at once."""
        started = self.seat.match.created_at.timestamp()
        seen = presence.of_match(self.seats, started, known)
        shown = tuple((p.index, p.state, p.left) for p in seen if p.index != self.seat.index)
        if shown == self.presence_shown and not force:
            return None
        self.presence_shown = shown
        return presence_fragment(seen, self.seat.index)

    # --- frames from the browser --------------------------------------------------------

    def receive(self, text_data) -> str | None:
        """The HTML answering one frame (None: say nothing)."""
        check = socket_limits.check_frame(self.seat.pk, self.client)
        if check is socket_limits.FrameCheck.REFUSED_AGAIN:
            return None  # already told this second; answering every frame of a flood would be a flood too
        if check is socket_limits.FrameCheck.REFUSED:
            return error_fragment(socket_limits.too_many_frames_message())
        try:
            frame = parse_frame(text_data)
        except FrameRejected as err:
            return error_fragment(str(err))
        handler = {
            "action": self.on_action,
            "chat": self.on_chat,
            "select": self.on_select,
            "clear": self.on_clear,
            "uhp": self.on_uhp,
            "live": self.on_live,
        }[frame["kind"]]
        try:
            with sent_from(self.loop) if self.loop is not None else nullcontext():
                return handler(frame)
        except Exception:  # keep the socket
            logger.exception("error handling %s frame for match %s", frame.get("kind"), self.seat.match_id)
            # Not "nothing was changed": a handler may fail after its service committed (e.g. while rendering).
            return error_fragment(SERVER_ERROR)

    def on_action(self, frame) -> str | None:
        return self._submit(
            frame,
            lambda version: services.apply_action(
                self.seat.match_id,
                self.seat.index,
                frame["action_id"],
                text=frame["text"] or None,
                expected_version=version,
                schedule_agents=self.agents_play,
            ),
        )

    def on_live(self, frame) -> str | None:
        """What a person holds now in a live match (gameplay.live): kept for the clock's next decision point,
        which checks it is legal then. Nothing to draw: the frames that follow show it."""
        if self.seat.is_agent:
            return None
        live_inputs.hold(live_inputs.match_key(self.seat.match), self.seat.index, frame["action_id"], frame["seq"])
        return None

    def on_uhp(self, frame) -> str | None:
        """A move typed in the game's notation (e.g. UHP for Hive); the engine maps it to an action id."""
        return self._submit(
            frame,
            lambda version: services.apply_move_text(
                self.seat.match_id,
                self.seat.index,
                frame["text"] or "",
                expected_version=version,
                schedule_agents=self.agents_play,
            ),
        )

    def _submit(self, frame, submit) -> str | None:
        """Submit, then show the mover the match as committed: read back from the database, whatever the
        notification to the other sockets did (issue 13.5)."""
        self.selection = ()
        if self.seat.is_agent:
            return self.refresh(board=True, error="An agent plays this seat now: you were away from the game. "
                                "Nothing was changed.")
        try:
            applied = submit(frame["version"])  # a checked int (parse_frame)
        except services.ServiceError as err:
            return self.refresh(board=True, error=f"{err}. Nothing was changed.")
        except Exception:
            # Whether the move got in before the failure is for the database to say, not for this message:
            # the board below is read back from it.
            logger.exception("error submitting a move for match %s", self.seat.match_id)
            return self.refresh(
                board=True,
                error="Something went wrong on the server. The board shows the match as it is now; "
                "if your move is not on it, please try again.",
            )
        if applied.change.follows(self.rendered_seq):
            return self._board_html(applied.change.seq, match=applied.match, last_action=applied.change.last_action,
                                    recent_actions=applied.change.recent_actions)
        return self.refresh(board=True, committed=applied)  # other events came in between: ask the log what

    def on_chat(self, frame) -> str | None:
        # The service refuses chat in a match without it ("chat is off in this match") before touching anything,
        # and a seat sending more than MAX_CHAT_PER_MINUTE lines.
        try:
            services.post_message(self.seat.match_id, self.seat.index, frame["text"])
        except services.ServiceError as err:
            return error_fragment(f"{err}. Nothing was sent.")
        return self.refresh()  # the sender sees its line at once, from the log

    def on_select(self, frame) -> str:
        location = frame["location"]  # clean single-line text of at most MAX_LOCATION_LENGTH (parse_frame)
        if not location:
            return error_fragment("Malformed selection.")
        # Clicking the last selected location again steps back; "restart" begins a new selection there.
        if self.selection and self.selection[-1] == location:
            self.selection = self.selection[:-1]
        elif frame.get("restart") in (True, "true", "1"):
            self.selection = (location,)
        elif len(self.selection) >= settings.MAX_SELECTION:
            return error_fragment(
                f"A selection holds at most {settings.MAX_SELECTION} clicks; this one was ignored. "
                "Clear the selection to start again."
            )
        else:
            self.selection = self.selection + (location,)
        return self.view_html(chat=False)

    def on_clear(self, frame) -> str:
        self.selection = ()
        return self.view_html(chat=False)

    # --- the match changed ------------------------------------------------------------

    def shows(self, seq) -> bool:
        """Whether this socket already shows event ``seq`` (e.g. its own move, rendered right after submitting)."""
        return type(seq) is int and seq <= self.rendered_seq

    def match_changed(self, event: dict) -> str | None:
        return self.changes_arrived([event])

    def changes_arrived(self, events: Sequence[dict]) -> str | None:
        """What the match's group messages ``events`` (in the order they came) change on this page, drawn once.

        Why once (issue 39, point 6): where every seat may act at any moment (Pit), moves come in bursts, and a socket
        whose work waited behind others' finds several messages waiting; drawing each would draw states the next
        one replaces at once, making everyone's queue longer still. The newest state holds the moves before it,
        and the move list lists them."""
        events = [event for event in events if not self.shows(event.get("seq"))]
        if not events:
            return None
        changes = [CommittedAction.from_message(event) for event in events]
        if self._one_run(changes):
            # One commit behind, then each change right after the one before: the last brings this socket up to
            # date from the messages alone (no query); its fields are the whole committed match.
            last = changes[-1]
            match = self.seat.match
            last.apply_to(match)
            return self._board_html(last.seq, match=match, last_action=last.last_action,
                                    recent_actions=last.recent_actions)
        return self.refresh()

    def _one_run(self, changes: Sequence[CommittedAction | None]) -> bool:
        seq = self.rendered_seq
        for change in changes:
            if change is None or change.match_id != self.seat.match_id or not change.follows(seq):
                return False
            seq = change.seq
        return True

    # --- rendering --------------------------------------------------------------------

    def catch_up(self) -> str | None:
        """What this socket missed, or None (one query) when it missed nothing. The consumer asks when the socket
        has been quiet for SOCKET_CATCH_UP_SECONDS: a group message can be lost (channels_redis drops messages
        over its capacity, a send can fail after its retries), and the page would otherwise show an old board
        until it is reloaded."""
        newest = self._newest_since()
        missed = any(top > self.rendered_seq for top in newest.values()) or (
            self.chat_enabled and newest.get(Event.Kind.MESSAGE, 0) > self.chat_seq
        )
        if not missed:
            return None
        logger.info("socket of match %s seat %s caught up with events it was not sent: %s",
                    self.seat.match_id, self.seat.index, newest)
        return self.refresh(newest=newest)

    def _newest_since(self) -> dict[str, int]:
        since = min(self.rendered_seq, self.chat_seq) if self.chat_enabled else self.rendered_seq
        return selectors.newest_seq_by_kind(self.seat.match_id, after_seq=since)

    def refresh(
        self, *, board: bool = False, error: str | None = None, newest: dict[str, int] | None = None,
        committed: services.Applied | None = None,
    ) -> str | None:
        """Bring this socket up to date: the board regions when anything but chat changed since it last drew
        them (or ``board``), and the chat lines it has not sent yet. None when nothing changed. ``newest``: what
        ``_newest_since`` just read, when the caller has it. ``committed``: this socket's action as the service
        committed it, drawn from without reading the match if only moves landed since this socket last drew."""
        newest = self._newest_since() if newest is None else newest
        seq = max([self.rendered_seq, *newest.values()])
        kinds = {kind for kind, top in newest.items() if top > self.rendered_seq}
        if committed is not None and kinds <= MOVES_ONLY and not error:
            # The committed match includes every move before this one; those after it are on their way here as
            # group messages, each following the one before.
            change = committed.change
            return self._board_html(change.seq, match=committed.match, last_action=change.last_action,
                                    recent_actions=change.recent_actions)
        if Event.Kind.SEAT in kinds:
            self._read_seats()  # an agent took over a seat: names, who may move here, and the presence list change
        # No new event at all (e.g. a next round was linked) still asks for a fresh look; games whose
        # observations hold the chat (spec.chat_in_state) draw it on the board too.
        chat_only = kinds == {Event.Kind.MESSAGE} and not self.chat_in_state
        html = ""
        if board or not chat_only:
            self.selection = self.selection if chat_only else ()
            html += self._board_html(seq)
        else:
            self.rendered_seq = seq
        if newest.get(Event.Kind.MESSAGE, 0) > self.chat_seq:
            html += self._chat_update_html()
        if error:
            html += error_fragment(error)
        return html or None

    def view_html(self, *, chat: bool = True) -> str:
        """This seat's regions; with ``chat`` the whole (bounded) chat log too, as when the socket opens."""
        return self._board_html(selectors.last_event_seq(self.seat.match_id), chat=chat)

    def _board_html(
        self,
        seq: int,
        *,
        chat: bool = False,
        match: Match | None = None,
        last_action: dict | None | object = selectors.READ_LAST_ACTION,
        recent_actions: list[dict] | None = None,
    ) -> str:
        """The board regions of the committed match: ``match`` as of event ``seq`` with its ``last_action``
        (gameplay.writes.committed), or else read from the database. ``seq`` was read before the match, so the socket
        never believes it shows an event that came after what it drew (at worst it draws one state twice)."""
        if match is None:
            match = selectors.match_by_id(self.seat.match_id)
        self.seat.match = match  # the seat's view reads its match through it
        view = selectors.seat_view(match, self.seat, with_chat=chat, seats=self.seats, last_action=last_action,
                                   recent_actions=recent_actions)
        self.rendered_seq = max(self.rendered_seq, seq)
        self.chat_enabled = view.chat_enabled
        self.chat_in_state = view.game.spec.chat_in_state  # its observations (so its board) may show the chat
        if chat:
            # The chat was read after ``seq``: it accounts for every message event up to there.
            self.chat_seq = max(view.chat_seq, seq)
            self.chat_lines_shown = len(view.chat)
        return seat_fragments(view, self.selection, chat_full=chat)

    def _chat_update_html(self) -> str:
        """The chat lines this socket has not sent yet: appended one by one, or the whole (bounded) log again
        when the page shows none so far ("No messages yet.") or more than CHAT_HISTORY_SHOWN were missed."""
        if not self.chat_enabled:
            return ""
        page = selectors.chat_page(self.seat.match_id, self.seat.index, self.names, after_seq=self.chat_seq)
        self.chat_seq = max(self.chat_seq, page.last_seq)
        if not page.lines:
            return ""
        if page.more or not self.chat_lines_shown:
            page = selectors.chat_page(self.seat.match_id, self.seat.index, self.names)
            self.chat_seq = max(self.chat_seq, page.last_seq)
            self.chat_lines_shown = len(page.lines)
            return chat_log_fragment(page)
        self.chat_lines_shown += len(page.lines)
        return chat_append_fragment(page.lines)


def beat_all(sockets: Sequence[SeatSocket]) -> list[str | None]:
    """The presence heartbeat of all the open sockets of a server process (gameplay.web.consumers.ProcessHeartbeat):
    their seats are here, and for each socket the presence list again if someone came or went since it drew it
    (None if not). Two cache round trips in all, however many sockets: a beat per socket cost the process
    noticeably more at 200 matches (issue 16, gameplay/bench/README.md, "Realtime benchmark")."""
    presence.beat_many({s.seat.pk: s.seat for s in sockets}.values())
    known = presence.read({seat.pk: seat for s in sockets for seat in s.seats}.values())
    return [s.presence_html(known=known) for s in sockets]

