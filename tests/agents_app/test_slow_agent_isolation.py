"""Issue 14: a slow agent does not delay anyone else's match on the embedded default.

A real daphne process on a SQLite file, with the in-memory channel layer and eager Celery (no REDIS_URL), serves
two matches: a person against an LLM agent whose model (a scripted OpenAI-compatible server) takes 10 s to
answer, and a match between two people. While the agent is thinking, moves in the people's match, and the
person's move that handed the agent its turn, must come back while the agent still thinks (within 5 s, half its
thinking time: a move queued behind the agent's turn would take all of it).

When the agent's turn ran inline (eager Celery plays a task inside ``.delay()``, i.e. on the consumer thread that
took the person's move), the person's move came back only after the whole model call, and with a synchronous
consumer (every socket of the process on one thread) so did the other match's moves.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from gameplay.bench.fragments import SeatFrame, parse_seat_frame
from gameplay.bench.realtime import ws_endpoint
from tests.agents_app.llm_match_support import first_listed_action
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = pytest.mark.slow

AGENT_THINKS = 10.0  # seconds the scripted model takes per answer
REPLY_TIMEOUT = 5.0  # far beyond a normal move, well within the model's thinking time

SETUP = r"""
import json, sys
import django
django.setup()
from agents_app.models import AgentConfig
from gameplay.writes import services
base_url = sys.argv[1]
AgentConfig.objects.create(name="slow-llm", base_url=base_url, model="scripted-model", api_key_env="", retries=1,
                           http_retries=0, timeout_s=60)
human, slow = services.SeatController("human"), services.SeatController("agent", agent_name="slow-llm")
vs_agent = services.create_match("santorini", [human, slow], seed=3)
people = services.create_match("santorini", [human, human], seed=3)
print(json.dumps({"vs_agent": vs_agent.seats.get(index=0).token,
                  "people": [people.seats.get(index=i).token for i in (0, 1)]}))
"""


class Seat:
    """One seat's socket and the latest board it showed."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.frame: SeatFrame | None = None
        self.seen_at = 0.0  # when the socket showed that frame

    async def next_board(self, after_version: int, timeout: float) -> SeatFrame:
        """The first frame showing a board newer than after_version (echoes of older versions are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(0.0, deadline - time.monotonic()))
            frame = parse_seat_frame(raw)
            assert frame.error is None, frame.error
            if frame.version is not None and frame.version > after_version:
                self.frame, self.seen_at = frame, time.monotonic()
                return frame


class SlowFirstAnswer:
    """A model that plays the first listed move, taking AGENT_THINKS seconds over its first answer only (the agent
    places two workers in a row; the test needs one long think, not two)."""

    def __init__(self):
        self.answers = itertools.count()

    def __call__(self, body) -> ScriptedReply:
        reply = first_listed_action(body)
        return replace(reply, delay=AGENT_THINKS) if next(self.answers) == 0 else reply


async def open_seat(base_url: str, token: str) -> Seat:
    url, origin = ws_endpoint(base_url, token)
    seat = Seat(await connect(url, origin=Origin(origin), max_size=None))
    await seat.next_board(-1, REPLY_TIMEOUT)
    return seat


async def send_first_action(seat: Seat) -> int:
    """Send the seat's first legal action; the version it was sent for."""
    assert seat.frame is not None and seat.frame.my_turn, "not this seat's turn"
    version = seat.frame.version
    await seat.ws.send(json.dumps({"kind": "action", "action_id": seat.frame.action_ids[0], "version": version}))
    return version


async def move(mover: Seat, others: list[Seat]) -> float:
    """Play the mover's first legal action; seconds until its own socket shows the move. The other sockets of the
    match are read up to the same version, so the next move knows whose turn it is."""
    started = time.monotonic()
    version = await send_first_action(mover)
    try:
        await mover.next_board(version, REPLY_TIMEOUT)
    except TimeoutError:
        pytest.fail(f"a move took more than {REPLY_TIMEOUT} s to come back while an agent was thinking")
    took = time.monotonic() - started
    for other in others:
        await other.next_board(version, REPLY_TIMEOUT)
    return took


async def people_move(people: list[Seat]) -> float:
    mover = next(seat for seat in people if seat.frame.my_turn)
    return await move(mover, [seat for seat in people if seat is not mover])


async def wait_for_requests(server, count: int, timeout: float) -> float:
    deadline = time.monotonic() + timeout
    while len(server.requests) < count:
        assert time.monotonic() < deadline, "the agent's model was never asked"
        await asyncio.sleep(0.01)
    return time.monotonic()


async def hand_the_turn_to_the_agent(person: Seat, server) -> tuple[float, float, asyncio.Future]:
    """The person moves until the agent is due: (when that move was sent, when the model was asked, the reply to
    that move, still being read).

    The reply is not awaited here: with the agent's turn played inline, on the thread that took the person's
    move, it would only come once the model had answered, and the other match is measured meanwhile."""
    while True:
        sent_at = time.monotonic()
        version = await send_first_action(person)
        reply = asyncio.ensure_future(person.next_board(version, AGENT_THINKS + REPLY_TIMEOUT))
        asked = asyncio.ensure_future(wait_for_requests(server, 1, REPLY_TIMEOUT))
        await asyncio.wait({reply, asked}, return_when=asyncio.FIRST_COMPLETED)
        if asked.done() or not reply.result().my_turn:
            return sent_at, await asked, reply
        asked.cancel()


async def play(base_url: str, tokens: dict, server) -> None:
    people = [await open_seat(base_url, token) for token in tokens["people"]]
    person = await open_seat(base_url, tokens["vs_agent"])
    try:
        await people_move(people)  # warm-up: the first move of a process compiles templates, fills caches
        baseline = max([await people_move(people) for _ in range(2)])

        sent_at, asked_at, reply = await hand_the_turn_to_the_agent(person, server)
        during = [await people_move(people) for _ in range(2)]
        # Each came back within REPLY_TIMEOUT (people_move fails otherwise), half the model's thinking time: a move
        # queued behind the agent's turn would have taken all of it. A bound that separates the two behaviours by a
        # factor of two, not a tuned threshold, so a loaded machine cannot fail it.
        assert time.monotonic() - asked_at < AGENT_THINKS, "the moves were not made while the agent was thinking"
        print(f"moves: {baseline * 1000:.0f} ms before, {max(during) * 1000:.0f} ms while the agent was thinking")

        # The person's own move came back at once too, showing the agent to move (nothing ran on its thread) ...
        waiting = await reply
        assert not waiting.my_turn, "the agent had already moved when the person's move came back"
        assert person.seen_at - sent_at < REPLY_TIMEOUT
        # ... and the agent's move still arrives, pushed to the person's socket once its model has answered.
        answer = await person.next_board(waiting.version, AGENT_THINKS + REPLY_TIMEOUT)
        assert time.monotonic() - asked_at >= AGENT_THINKS - 0.5
        assert answer.version > waiting.version
    finally:
        for seat in [*people, person]:
            await seat.ws.close()


def test_a_slow_agent_does_not_delay_a_move_in_another_match(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'embedded.sqlite3'}")
    migrate(env)
    with scripted_openai_server(SlowFirstAnswer()) as server:
        out = subprocess.run(
            [sys.executable, "-c", SETUP, server.base_url], cwd=ROOT, env=env, capture_output=True, text=True,
            check=True,
        )
        tokens = json.loads(out.stdout.strip().splitlines()[-1])
        with daphne_server(env, log_path=tmp_path / "daphne.log") as base_url:
            asyncio.run(play(base_url, tokens, server))
