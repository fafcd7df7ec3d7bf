"""The clock of one live match: a decision point every ``frames_per_decision`` frames, frames streamed between.

At each decision point the runner submits, through the match service like any move, the input each person holds
(``inputs.held``) and, for a seat that has not chosen in time (an agent still thinking), the engine's
``idle_action`` marked ``late`` in the event. Agents choose as always, in their Celery turns, announced by the
service after every completed decision point. The runner keeps its own copy of the state, replays each committed
decision point on it with ``keep_frames`` on, and sends the frames it played to the match's sockets, paced at the
game's frame rate (``Game.frames_per_second``). The service stays the only writer; the copy only draws.

A key counts from the next decision point on, so what a person feels is half a window plus the work between the
decision point and its first frame (issue 39, point 5): a live bout with a person has a short window
(``Game.options_for_live_play``), and that work is kept small and steady here: people's choices go in first, with
no read of the state before them (``play_decision``), and the work runs on threads of its own
(``live_bout_threads``), never queued behind a socket's drawing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer

from gameplay.engines.api import ActionRecord, State, log_from_json
from gameplay.models import Match
from gameplay.reads import selectors
from gameplay.web.socket_threads import live_bout_threads
from gameplay.writes import services

from . import inputs

logger = logging.getLogger(__name__)

START_DELAY_SECONDS = 2.0  # "get ready": the page has opened its socket and drawn the first frame
MAX_LAG_SECONDS = 1.0  # further behind than this (a slow database), the schedule restarts instead of bursting
SUBMIT_ATTEMPTS = 6


def in_thread(func):
    """Database, cache and emulator work off the event loop, on the live clocks' own threads (which keep and tidy
    their database connections as the match sockets' do: gameplay.web.socket_threads), so a decision point never
    waits behind a socket's drawing."""
    return SyncToAsync(func, thread_sensitive=False, executor=live_bout_threads)


class LiveBout:
    def __init__(self, match_id: int, key: str, lease: str, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, start_delay: float = START_DELAY_SECONDS):
        self.match_id = match_id
        self.key = key  # the match's name in the cache (inputs.match_key)
        self.lease = lease
        self.clock, self.sleep = clock, sleep
        self.start_delay = start_delay
        self.layer = get_channel_layer()
        self.group = selectors.match_group_name(match_id)
        self.frames_sent = 0
        self.late_decisions = 0

    # --- the loop (on an event loop: frames are paced with asyncio.sleep and sent with the layer's own await) ---
    async def run(self) -> None:
        try:
            await self._run()
        except Exception:
            logger.exception("live bout of match %s stopped", self.match_id)
        finally:
            await in_thread(inputs.release_lease)(self.key, self.lease)

    async def _run(self) -> None:
        local, people = await in_thread(self._load)()
        fps = local.game.frames_per_second()
        period = local.frames_per_decision() / fps
        start = self.clock() + self.start_delay
        renewed = self.clock()
        number = 0
        while not local.is_terminal():
            due = start + number * period
            if self.clock() - due > MAX_LAG_SECONDS:
                start, due = self.clock() - number * period, self.clock()
            await self._wait_until(due)
            if self.clock() - renewed >= 1.0:
                if not await in_thread(inputs.renew_lease)(self.key, self.lease):
                    return  # another runner took over
                renewed = self.clock()
            played = await in_thread(self._decide_and_draw)(local, people)
            if played is None:
                return  # the match ended (a resignation, an abort) or cannot be played
            frames, used = played
            for index, png in enumerate(frames):
                await self._wait_until(due + index / fps)
                await self._send_frame(png, used)
            number += 1

    def _load(self) -> tuple[State, list[int]]:
        match = Match.objects.get(pk=self.match_id)
        local = selectors.state_of(match)
        local.keep_frames(True)
        return local, sorted(s.index for s in match.seats.all() if not s.is_agent)

    def _decide_and_draw(self, local: State, people: list[int]) -> tuple[list[bytes], dict[int, int]] | None:
        """Play the decision point through the service, then on the runner's copy, whose frames it returns."""
        records, used = self.play_decision(people, local)
        if records is None:
            return None
        for record in records:
            local.apply_action(record.seat, record.action_id, record.text)
        return local.take_frames(), used

    async def _wait_until(self, when: float) -> None:
        delay = when - self.clock()
        if delay > 0:
            await self.sleep(delay)

    # --- one decision point ------------------------------------------------------------------------
    def play_decision(self, people: list[int], local: State) -> tuple[list[ActionRecord] | None, dict[int, int]]:
        """Submit a choice for every seat of this decision point that has not chosen (``local``, the runner's copy,
        is at its start and names the seats); its records once all are in (None when the match is over), and the
        input counter used per person. Only this decision point's records: an agent quick enough to choose for the
        next one already stays in the log for the next call.

        People first: their choices are the runner's alone, so each takes one transaction, and the committed state
        it returns says whether the agents have chosen (an agent's turn, announced when the previous decision point
        completed, usually has). The match is read only for its version (no state) before a submission, and in full
        only when a submission is refused. Nothing here grows with the bout's length but the service's own work."""
        known, choosers = len(local.log), local.current_seats()
        order = sorted(choosers, key=lambda seat: seat not in people)
        used: dict[int, int] = {}
        made: list[ActionRecord] = []
        version = None
        for _ in range(SUBMIT_ATTEMPTS * len(choosers)):
            if version is None:
                row = Match.objects.filter(pk=self.match_id).values_list("version", "status").first()
                if row is None or row[1] != Match.Status.ACTIVE:
                    return None, used
                version = row[0]
            chosen = {r.seat for r in made}
            seat = next(s for s in order if s not in chosen)
            action, extra = self._choice(local, seat, people)
            if "live_input_seq" in extra:
                used[seat] = extra["live_input_seq"]
            try:
                applied = services.apply_action(self.match_id, seat, action, expected_version=version, extra=extra)
                committed = applied.match
            except services.ActionRejected:
                committed = Match.objects.get(pk=self.match_id)  # an agent's choice got in first: read again
                if committed.status != Match.Status.ACTIVE:
                    made = _records(committed.state["log"], known, len(choosers))
                    return (made if len(made) == len(choosers) else None), used
            version = committed.version
            made = _records(committed.state["log"], known, len(choosers))
            if len(made) == len(choosers):
                return made, used  # (also when these ended the match: its last frames are still shown)
            if committed.status != Match.Status.ACTIVE:
                return None, used
        logger.warning("live bout of match %s could not complete a decision point", self.match_id)
        return None, used

    def _choice(self, state: State, seat: int, people: list[int]) -> tuple[str, dict]:
        """``state``: the runner's copy at the decision point's start (a seat's legal actions and idle action there
        do not depend on the other seats' hidden choices)."""
        legal = {a.id for a in state.legal_actions(seat)}
        if seat in people:
            held = inputs.held(self.key, [seat]).get(seat)
            if held is not None and held.action_id in legal:
                return held.action_id, {"live_input_seq": held.seq}
            return state.idle_action(seat), {"live_input_seq": held.seq if held else 0}
        self.late_decisions += 1
        return state.idle_action(seat), {"late": True}

    async def _send_frame(self, png: bytes, used: dict[int, int]) -> None:
        message = {"type": "live.frame", "png": png, "frame": self.frames_sent, "sent_ms": int(time.time() * 1000),
                   "seqs": {str(seat): seq for seat, seq in used.items()}}
        try:
            await self.layer.group_send(self.group, message)
            self.frames_sent += 1
        except Exception:  # a lost frame is only a lost picture: the next one follows
            logger.info("could not stream a frame of match %s", self.match_id, exc_info=True)


def _records(log: list, start: int, count: int) -> list[ActionRecord]:
    """The records of one decision point in a committed state's JSON log."""
    return log_from_json(log[start:start + count])

