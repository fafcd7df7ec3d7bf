"""What a match socket does differently in a live match (gameplay.live, issue 39 point 5): a person's held input
takes a lane of its own, and the board regions are redrawn at a bounded rate instead of after every commit.

Why. A held key becomes the person's choice at the clock's next decision point, a few frames away; on the embedded
default (SQLite) the socket threads are one thread, which also runs the clock's transactions and every socket's
drawing, so an input queued there arrived a decision point late. Storing it needs only the cache, so it runs on
a thread of its own, beside the socket's other work (SeatSocket.on_live touches nothing they change).

The runner commits a decision point or two every twelfth of a second, and every commit tells every socket of the
match to redraw its board regions: the score line and the status, which the streamed frames already show (the
console draws the scores and the clock). Drawn after every commit, they took most of the socket thread; a live
socket's queue of changes (``MatchConsumer._draw_changes``) is drawn at most once every LIVE_REDRAW_SECONDS instead,
the commits that came in meanwhile together (each drawing shows the match as committed, so none is missed).
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync

LIVE_REDRAW_SECONDS = 0.5

# One thread per process: an input is a cache write (or two: the frame counters), a person sends a few a second.
_input_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-input")


def on_input_thread(func):
    return SyncToAsync(func, thread_sensitive=False, executor=_input_thread)


def is_live_input(text_data) -> bool:
    """Whether a frame asks to be handled as a held input (SeatSocket.receive still checks it in full)."""
    if not isinstance(text_data, str) or len(text_data) > 512:
        return False
    try:
        frame = json.loads(text_data)
    except ValueError:
        return False
    return isinstance(frame, dict) and frame.get("kind") == "live"
