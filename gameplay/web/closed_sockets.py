"""Sending to a websocket whose browser has already gone is not an error (issue 37).

A group message (another seat's move, a presence change, a live frame) can reach a consumer after its browser closed
the socket but before the server has told the consumer so: daphne then raises autobahn's ``Disconnected`` ("Attempt to
send on a closed protocol") from the send. Escaping the handler, it ended the consumer with a traceback in the log for
an everyday race. Dropping the frame loses nothing: the page it was for is gone, and a page that comes back draws the
match afresh. The disconnect that follows tidies up as usual.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def _closed_socket_errors() -> tuple[type[BaseException], ...]:
    """What the ASGI server raises for a send on a socket that has closed. Only daphne's is known; under another
    server nothing is caught, so an unknown failure still shows."""
    try:
        from autobahn.exception import Disconnected  # daphne's websocket layer
    except ImportError:
        return ()
    return (Disconnected,)


CLOSED_SOCKET_ERRORS = _closed_socket_errors()


class QuietWhenClosed:
    """Mixin for a Channels websocket consumer: a send to a socket that has already closed is dropped and logged
    at debug level, instead of ending the consumer with a traceback."""

    async def send(self, text_data=None, bytes_data=None, close=False):
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except CLOSED_SOCKET_ERRORS as err:
            logger.debug("dropped a frame for the closed socket %s: %s", getattr(self, "channel_name", "?"), err)
