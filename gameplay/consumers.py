"""One websocket consumer per match connection. Thin: authenticate the seat, call a service, render.

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

Every frame is checked against a schema (gameplay.frames.parse_frame) before any handler runs; a refused frame
gets the error fragment, the socket stays open and nothing changes.

Limits per seat (gameplay.socket_limits, issue 13.6): at most MAX_SOCKETS_PER_SEAT open sockets (a new one closes
the oldest, which is told why), MAX_FRAMES_PER_SECOND frames over all of them (the first refused frame of a second
gets a short message, later ones nothing, and none renders a board), MAX_CHAT_PER_MINUTE chat lines (the service),
a selection of at most MAX_SELECTION clicks.

What a socket sends: its seat's whole view when it opens (the chat log bounded to CHAT_HISTORY_SHOWN lines); then,
when the match changes, the board regions if more than chat changed, and only the chat lines it has not sent yet.
The mover's own socket renders the committed match itself after a successful action or chat line, never waiting
for the group message (which may fail, issue 13.5); a group message whose "seq" this socket already rendered is
skipped.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings

from gameplay import selectors, services, socket_limits
from gameplay.frames import KINDS, FrameRejected, parse_frame
from gameplay.models import Event
from gameplay.rendering import chat_append_fragment, chat_log_fragment, error_fragment, seat_fragments

logger = logging.getLogger(__name__)

__all__ = ["KINDS", "FrameRejected", "MatchConsumer", "parse_frame"]


class MatchConsumer(WebsocketConsumer):
    seat = None
    group = None
    registered = False  # whether this socket counts among its seat's open sockets (socket_limits)
    chat_enabled = False
    chat_in_state = False

    def connect(self):
        self.seat = selectors.seat_by_token(self.scope["url_route"]["kwargs"].get("token", ""))
        if self.seat is None:
            self.close()  # before accept: the handshake is refused
            return
        self.group = selectors.match_group_name(self.seat.match_id)
        self.selection: tuple[str, ...] = ()
        self.rendered_seq = 0  # newest event the board regions on this socket account for
        self.chat_seq = 0  # newest message event the chat log on this socket accounts for
        self.chat_lines_shown = 0
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        for stale in socket_limits.register_socket(self.seat, self.channel_name):
            self._evict(stale)
        self.registered = True
        services.mark_joined(self.seat)
        self.send_view()

    def _evict(self, channel_name: str) -> None:
        try:
            async_to_sync(self.channel_layer.send)(channel_name, {"type": "socket.evict"})
        except Exception:  # e.g. that socket's process is gone with its channel: nothing left to close
            logger.info("could not tell an old socket of match %s to close", self.seat.match_id, exc_info=True)

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
        if self.registered:
            socket_limits.unregister_socket(self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        check = socket_limits.check_frame(self.seat.pk)
        if check is socket_limits.FrameCheck.REFUSED_AGAIN:
            return None  # already told this second; answering every frame of a flood would be a flood too
        if check is socket_limits.FrameCheck.REFUSED:
            return self.send_error(socket_limits.too_many_frames_message())
        try:
            frame = parse_frame(text_data)
        except FrameRejected as err:
            return self.send_error(str(err))
        handler = {
            "action": self.on_action,
            "chat": self.on_chat,
            "select": self.on_select,
            "clear": self.on_clear,
            "uhp": self.on_uhp,
        }[frame["kind"]]
        try:
            handler(frame)
        except Exception:  # keep the socket
            logger.exception("error handling %s frame for match %s", frame.get("kind"), self.seat.match_id)
            # Not "nothing was changed": a handler may fail after its service committed (e.g. while rendering).
            self.send_error("Something went wrong on the server. Please try again, or reload the page if it persists.")

    # --- frame handlers ---------------------------------------------------------

    def on_action(self, frame):
        self._submit(
            frame,
            lambda version: services.submit_action(
                self.seat.match_id,
                self.seat.index,
                frame["action_id"],
                text=frame["text"] or None,
                expected_version=version,
            ),
        )

    def on_uhp(self, frame):
        """A move typed in the game's notation (e.g. UHP for Hive); the engine maps it to an action id."""
        self._submit(
            frame,
            lambda version: services.submit_move_text(
                self.seat.match_id, self.seat.index, frame["text"] or "", expected_version=version
            ),
        )

    def _submit(self, frame, submit):
        """Submit, then show the mover the match as committed: read back from the database, whatever the
        notification to the other sockets did (issue 13.5)."""
        self.selection = ()
        try:
            submit(frame["version"])  # a checked int (parse_frame)
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
        self.refresh(board=True)

    def on_chat(self, frame):
        # The service refuses chat in a match without it ("chat is off in this match") before touching anything,
        # and a seat sending more than MAX_CHAT_PER_MINUTE lines.
        try:
            services.post_message(self.seat.match_id, self.seat.index, frame["text"])
        except services.ServiceError as err:
            return self.send_error(f"{err}. Nothing was sent.")
        self.refresh()  # the sender sees its line at once, from the log

    def on_select(self, frame):
        location = frame["location"]  # clean single-line text of at most MAX_LOCATION_LENGTH (parse_frame)
        if not location:
            return self.send_error("Malformed selection.")
        # Clicking the last selected location again steps back; "restart" begins a new selection there.
        if self.selection and self.selection[-1] == location:
            self.selection = self.selection[:-1]
        elif frame.get("restart") in (True, "true", "1"):
            self.selection = (location,)
        elif len(self.selection) >= settings.MAX_SELECTION:
            return self.send_error(
                f"A selection holds at most {settings.MAX_SELECTION} clicks; this one was ignored. "
                "Clear the selection to start again."
            )
        else:
            self.selection = self.selection + (location,)
        self.send_view(chat=False)

    def on_clear(self, frame):
        self.selection = ()
        self.send_view(chat=False)

    # --- group and channel events --------------------------------------------------

    def match_changed(self, event):
        seq = event.get("seq")
        if type(seq) is int and seq <= self.rendered_seq:
            return  # this socket already shows that event (e.g. its own move, rendered right after submitting)
        self.refresh()

    def socket_evict(self, event):
        """A newer socket of this seat went past MAX_SOCKETS_PER_SEAT: this, the oldest, makes way."""
        self.registered = False  # its row is gone already
        self.send_error(socket_limits.EVICTED_MESSAGE)
        self.close(code=socket_limits.EVICTED_CLOSE_CODE)

    # --- rendering --------------------------------------------------------------

    def refresh(self, *, board: bool = False, error: str | None = None):
        """Bring this socket up to date: the board regions when anything but chat changed since it last drew
        them (or ``board``), and the chat lines it has not sent yet. Sends nothing when nothing changed."""
        seq = selectors.last_event_seq(self.seat.match_id)
        kinds = selectors.event_kinds_between(self.seat.match_id, self.rendered_seq, seq)
        # No new event at all (e.g. a next round was linked) still asks for a fresh look; games whose
        # observations hold the chat (spec.chat_in_state) draw it on the board too.
        chat_only = kinds == {Event.Kind.MESSAGE} and not self.chat_in_state
        html = ""
        if board or not chat_only:
            self.selection = self.selection if chat_only else ()
            html += self._board_html(seq)
        else:
            self.rendered_seq = seq
        html += self._chat_update_html()
        if error:
            html += error_fragment(error)
        if html:
            self.send(text_data=html)

    def send_view(self, error: str | None = None, *, chat: bool = True):
        """This seat's regions; with ``chat`` the whole (bounded) chat log too, as when the socket opens."""
        seq = selectors.last_event_seq(self.seat.match_id)
        html = self._board_html(seq, chat=chat)
        if error:
            html += error_fragment(error)
        self.send(text_data=html)

    def _board_html(self, seq: int, *, chat: bool = False) -> str:
        """The board regions of the committed match. ``seq`` was read before the match, so the socket never
        believes it shows an event that came after what it drew (at worst it draws one state twice)."""
        match = selectors.match_by_id(self.seat.match_id)
        view = selectors.seat_view(match, self.seat, with_chat=chat)
        self.rendered_seq = max(self.rendered_seq, seq)
        self.chat_enabled = view.chat_enabled
        self.chat_in_state = view.game.spec.chat_in_state  # its observations (so its board) may show the chat
        if chat:
            self.chat_seq = view.chat_seq
            self.chat_lines_shown = len(view.chat)
        return seat_fragments(view, self.selection, chat_full=chat)

    def _chat_update_html(self) -> str:
        """The chat lines this socket has not sent yet: appended one by one, or the whole (bounded) log again
        when the page shows none so far ("No messages yet.") or more than CHAT_HISTORY_SHOWN were missed."""
        if not self.chat_enabled:
            return ""
        names = dict(self.seat.match.seats.values_list("index", "display_name"))
        page = selectors.chat_page(self.seat.match_id, self.seat.index, names, after_seq=self.chat_seq)
        self.chat_seq = page.last_seq
        if not page.lines:
            return ""
        if page.more or not self.chat_lines_shown:
            page = selectors.chat_page(self.seat.match_id, self.seat.index, names)
            self.chat_seq = max(self.chat_seq, page.last_seq)
            self.chat_lines_shown = len(page.lines)
            return chat_log_fragment(page)
        self.chat_lines_shown += len(page.lines)
        return chat_append_fragment(page.lines)

    def send_error(self, message: str):
        self.send(text_data=error_fragment(message))
