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
"""

from __future__ import annotations

import json
import logging

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings

from gameplay import selectors, services
from gameplay.rendering import error_fragment, seat_fragments

logger = logging.getLogger(__name__)


class MatchConsumer(WebsocketConsumer):
    seat = None
    group = None

    def connect(self):
        self.seat = selectors.seat_by_token(self.scope["url_route"]["kwargs"].get("token", ""))
        if self.seat is None:
            self.close()  # before accept: the handshake is refused
            return
        self.group = selectors.match_group_name(self.seat.match_id)
        self.selection: tuple[str, ...] = ()
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        services.mark_joined(self.seat)
        self.send_view()

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > settings.MAX_FRAME_BYTES:
            return self.send_error("Message too large or not text; nothing was changed.")
        try:
            frame = json.loads(text_data)
        except ValueError:
            return self.send_error("Malformed message (not JSON); nothing was changed.")
        if not isinstance(frame, dict):
            return self.send_error("Malformed message; nothing was changed.")
        handler = {
            "action": self.on_action,
            "chat": self.on_chat,
            "select": self.on_select,
            "clear": self.on_clear,
            "uhp": self.on_uhp,
        }.get(frame.get("kind"))
        if handler is None:
            return self.send_error("Unknown message kind; nothing was changed.")
        try:
            handler(frame)
        except Exception:  # keep the socket: the transaction rolled back, so nothing changed
            logger.exception("error handling %s frame for match %s", frame.get("kind"), self.seat.match_id)
            self.send_error("Something went wrong on the server; nothing was changed. Please try again.")

    # --- frame handlers ---------------------------------------------------------

    def on_action(self, frame):
        self._submit(
            frame,
            lambda version: services.submit_action(
                self.seat.match_id,
                self.seat.index,
                frame.get("action_id"),
                text=frame.get("text") or None,
                expected_version=version,
            ),
        )

    def on_uhp(self, frame):
        """A move typed in the game's notation (e.g. UHP for Hive); the engine maps it to an action id."""
        self._submit(
            frame,
            lambda version: services.submit_move_text(
                self.seat.match_id, self.seat.index, frame.get("text"), expected_version=version
            ),
        )

    def _submit(self, frame, submit):
        try:
            version = int(frame.get("version"))
        except (TypeError, ValueError):
            return self.send_error("Missing or malformed version; nothing was changed.")
        try:
            submit(version)
        except services.ServiceError as err:
            self.selection = ()
            self.send_view(error=f"{err}. Nothing was changed.")

    def on_chat(self, frame):
        # The service refuses chat in a match without it ("chat is off in this match") before touching anything.
        try:
            services.post_message(self.seat.match_id, self.seat.index, frame.get("text"))
        except services.ServiceError as err:
            self.send_error(f"{err}. Nothing was sent.")

    def on_select(self, frame):
        location = frame.get("location")
        if not isinstance(location, str) or len(location) > 32:
            return self.send_error("Malformed selection.")
        # Clicking the last selected location again steps back; "restart" begins a new selection there.
        if self.selection and self.selection[-1] == location:
            self.selection = self.selection[:-1]
        elif frame.get("restart") in (True, "true", "1"):
            self.selection = (location,)
        else:
            self.selection = self.selection + (location,)
        self.send_view()

    def on_clear(self, frame):
        self.selection = ()
        self.send_view()

    # --- group events -----------------------------------------------------------

    def match_changed(self, event):
        self.selection = ()
        self.send_view()

    # --- rendering --------------------------------------------------------------

    def send_view(self, error: str | None = None):
        match = selectors.match_by_id(self.seat.match_id)
        html = seat_fragments(selectors.seat_view(match, self.seat), self.selection)
        if error:
            html += error_fragment(error)
        self.send(text_data=html)

    def send_error(self, message: str):
        self.send(text_data=error_fragment(message))
