"""Fuzz (issue 13, "Deliver" point 3): generated websocket frames get an answer, never a server error, and what is
refused changes nothing. 1,000 frames per database (2,000 in a CI run, which plays both) go over a real
WebsocketCommunicator (the whole ASGI stack) to seat 0 of a Santorini and a Hive match: random JSON values, wrong
types, lone surrogates, NUL and other control characters, huge and deeply nested structures, NaN and ±Infinity,
random kinds, truncated JSON, binary frames, and plausible frames built from the live match (its version, its legal
actions) so that the accepting paths run too. Every frame must be answered with a text frame (a socket closed with
1011 or an exception fails the test) that daphne could send (valid UTF-8); a frame answered with the error fragment
must leave the match's event count, version, state and status unchanged. Afterwards everything stored is clean text
and every seat of the fuzzed matches still loads and connects. Runs in phase 1 (SQLite) and phase 2 (PostgreSQL:
.ci/test runs tests/gameplay there); the slowest of the fuzz tests (URL paths: test_fuzz_url_paths.py; handshakes:
test_fuzz_socket_handshakes.py).
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.models import Event, Match
from gameplay.project.asgi import application
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.text_input import clean_text
from tests.gameplay.fuzz_support import HEALTH, NASTY, any_char, memory_layer  # noqa: F401 (memory_layer: a fixture)
from tests.gameplay.ws_support import FLASH_ERROR, HUMAN, ORIGIN, TIMEOUT, SeatCommunicator, is_presence_only

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

FRAMES = 1_000  # in each of the two phases (SQLite, then PostgreSQL): 2,000 in a CI run
KINDS = ("action", "chat", "select", "clear", "uhp")  # what the consumer knows (gameplay.web.consumers.KINDS)


# --- generated values ----------------------------------------------------------------------------------------

texts = st.one_of(
    st.text(any_char, max_size=30),
    st.lists(st.sampled_from(NASTY) | any_char, max_size=16).map("".join),
    st.sampled_from(["", " ", "hi", "gg\nwell played", "place:a1", "c3", "wS1", "0", "12", "x" * 1001, "y" * 4000]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**17, max_value=10**40),
    st.floats(),  # NaN and ±Infinity included: json.dumps writes them as bare constants
    texts,
)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=10
)
kinds = st.one_of(
    st.sampled_from(KINDS),
    st.sampled_from(["", "Chat", "chat ", "resign", "action\x00", "\ud800", "HEADERS"]),
    json_values,
)
# "CURRENT" and ("LEGAL", k) are filled in from the live match when the frame is sent.
versions = st.one_of(
    st.just("CURRENT"),
    st.just("CURRENT-STRING"),
    st.sampled_from([0, "0", 0.9, 0.0, True, False, "0.9", "\u0660", " 0", "-1", -1, 10**30, "1e3", None]),
    st.floats(),
    json_values,
)
action_ids = st.one_of(st.tuples(st.just("LEGAL"), st.integers(0, 50)), texts, json_values)
locations = st.one_of(st.sampled_from(["a1", "c3", "e5", "0,0", "1,-1"]), texts, json_values)
headers = st.one_of(
    st.just({"HX-Request": "true", "HX-Trigger": None, "HX-Target": None, "HX-Current-URL": "http://localhost/"}),
    json_values,
)
structured = st.fixed_dictionaries(
    {"kind": kinds},
    optional={
        "action_id": action_ids,
        "version": versions,
        "text": st.one_of(texts, json_values),
        "location": locations,
        "restart": st.one_of(st.sampled_from([True, "true", "1", False]), json_values),
        "HEADERS": headers,
        "extra": json_values,
    },
)
plausible = st.one_of(
    st.fixed_dictionaries({"kind": st.just("action"), "action_id": action_ids, "version": versions},
                          optional={"text": texts}),
    st.fixed_dictionaries({"kind": st.just("chat"), "text": texts}),
    st.fixed_dictionaries({"kind": st.just("uhp"), "version": versions, "text": texts}),
    st.fixed_dictionaries({"kind": st.just("select"), "location": locations}, optional={"restart": st.booleans()}),
    st.just({"kind": "clear"}),
)


def _nested(n: int, opener: str, closer: str, inner: str = "1") -> str:
    return opener * n + inner + closer * n


raw = st.one_of(
    st.text(any_char, max_size=60),  # mostly not JSON
    st.integers(1, 9000).map(lambda n: _nested(n, "[", "]", "")),
    st.integers(1, 4000).map(lambda n: '{"kind": "chat", "text": "hi", "x": ' + _nested(n, "[", "]", "") + "}"),
    st.integers(1, 3000).map(lambda n: '{"kind": "chat", "text": "hi", "x": ' + _nested(n, '{"a":', "}") + "}"),
    st.sampled_from(["NaN", "Infinity", "-Infinity", '{"kind": "chat", "text": "hi", "v": NaN}',
                     '{"kind": "action", "action_id": "place:a1", "version": Infinity}',
                     '{"kind": "action", "action_id": "place:a1", "version": -Infinity}',
                     '{"kind": "action", "action_id": "place:a1", "version": 1e400}',
                     '{"kind": "chat", "text": "\\ud800"}', '{"kind": "chat", "text": "\\u0000"}',
                     '{"kind": "chat"', "{", "[", '"', "", " ", "null", "[]", "{}", '{"kind": null}']),
    st.integers(1, 3 * django_settings.MAX_FRAME_BYTES).map(lambda n: '{"kind": "chat", "text": "%s"}' % ("z" * n)),
    st.tuples(structured, st.integers(0, 200)).map(lambda t: json.dumps(t[0])[: t[1]]),  # truncated JSON
)
frames = st.one_of(
    st.tuples(st.just("json"), structured, st.booleans()),
    st.tuples(st.just("json"), plausible, st.booleans()),
    st.tuples(st.just("json"), json_values, st.booleans()),
    st.tuples(st.just("raw"), raw, st.just(True)),
    st.tuples(st.just("bytes"), st.binary(max_size=200), st.just(True)),
)


# --- the matches under fire ----------------------------------------------------------------------------------


class Arena:
    """Seat 0 of a Santorini match (chat, clicks) and of a Hive match (typed moves), each on its own socket; the
    other seat is played through the service with random legal moves, so seat 0 is usually on turn."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.rng = random.Random(13)
        self.sockets: dict[str, WebsocketCommunicator] = {}
        self.matches: dict[str, int] = {}
        self.tokens: list[str] = []
        for game in ("santorini", "hive"):
            self.start(game)

    def start(self, game: str) -> None:
        match = services.create_match(game, [HUMAN, HUMAN], seed=self.rng.randrange(10**6), host_seat=None)
        tokens = list(match.seats.order_by("index").values_list("token", flat=True))
        self.tokens += tokens
        if game in self.sockets:
            self.run(self.sockets[game].disconnect())
        comm = SeatCommunicator(application, f"/ws/play/{tokens[0]}/", headers=ORIGIN)
        connected, _ = self.run(comm.connect(timeout=TIMEOUT))
        assert connected
        self.run(comm.receive_from(timeout=TIMEOUT))  # the view on connecting
        self.sockets[game], self.matches[game] = comm, match.pk

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    def fingerprint(self, game: str) -> tuple:
        match = Match.objects.get(pk=self.matches[game])
        return Event.objects.filter(match=match).count(), match.version, match.state, match.status

    def fill_in(self, game: str, value):
        """Replace the placeholders of a generated frame with the live match's version and legal actions."""
        if isinstance(value, dict):
            return {k: self.fill_in(game, v) for k, v in value.items()}
        if value in ("CURRENT", "CURRENT-STRING"):
            version = Match.objects.get(pk=self.matches[game]).version
            return version if value == "CURRENT" else str(version)
        if isinstance(value, tuple) and value and value[0] == "LEGAL":
            match = Match.objects.get(pk=self.matches[game])
            state = state_of(match)
            legal = state.legal_actions(0) if not state.is_terminal() else []
            return legal[value[1] % len(legal)].id if legal else "place:a1"
        return value

    def send(self, game: str, message: dict) -> str:
        """One frame in, its one answer out: a text frame, or the test fails (a close, e.g. 1011, or an error)."""
        comm = self.sockets[game]

        async def exchange():
            await comm.send_input(message)
            while True:
                output = await comm.receive_output(timeout=TIMEOUT)
                # Seat 1 never opens its page: after PRESENCE_LEFT_AFTER_SECONDS its "not joined yet" counts as
                # gone for good, and the presence list is sent again (nothing to do with the frame sent).
                if not is_presence_only(output.get("text") or ""):
                    return output

        output = self.run(exchange())
        assert output["type"] == "websocket.send", f"the socket was closed: {output!r}"
        assert "text" in output, output
        output["text"].encode("utf-8")  # daphne could not send a lone surrogate
        return output["text"]

    def opponent_moves(self, game: str) -> None:
        """Seat 1 plays until seat 0 is on turn again (each move is one more frame on seat 0's socket)."""
        match = Match.objects.get(pk=self.matches[game])
        while match.status == Match.Status.ACTIVE:
            state = state_of(match)
            if 0 in state.current_seats():
                return
            seat = state.current_seats()[0]
            action = self.rng.choice(state.legal_actions(seat))
            match = services.submit_action(match.pk, seat, action.id, expected_version=match.version)
            self.run(self.sockets[game].receive_from(timeout=TIMEOUT))
        self.start(game)  # over: a fresh match, so actions keep meeting a live one

    def close(self) -> None:
        for comm in self.sockets.values():
            self.run(comm.disconnect())


def _frame_message(arena: Arena, game: str, family: str, value, ascii_only: bool) -> dict:
    if family == "bytes":
        return {"type": "websocket.receive", "bytes": value}
    if family == "raw":
        return {"type": "websocket.receive", "text": value}
    text = json.dumps(arena.fill_in(game, value), ensure_ascii=ascii_only, default=str)
    return {"type": "websocket.receive", "text": text}


def _assert_everything_stored_is_clean() -> None:
    for payload in Event.objects.filter(kind__in=[Event.Kind.MESSAGE, Event.Kind.ACTION]).values_list(
        "payload", flat=True
    ):
        for key in ("text", "action_id"):
            if isinstance(payload.get(key), str):
                assert clean_text(payload[key], max_length=10_000, multiline=True, strip=False) == payload[key]


def test_fuzz_websocket_frames(memory_layer):  # noqa: F811
    loop = asyncio.new_event_loop()
    arena = Arena(loop)
    counts = {"refused": 0, "accepted": 0, "changed": 0}

    @settings(max_examples=FRAMES, deadline=None, suppress_health_check=HEALTH)
    @given(frame=frames, hive=st.integers(0, 3))
    def send_one(frame, hive):
        game = "hive" if hive == 0 else "santorini"
        family, value, ascii_only = frame
        message = _frame_message(arena, game, family, value, ascii_only)
        before = arena.fingerprint(game)
        reply = arena.send(game, message)
        if FLASH_ERROR in reply:
            counts["refused"] += 1
            assert arena.fingerprint(game) == before, f"a refused frame changed the match: {message!r}"
        else:
            counts["accepted"] += 1
            # A view (a select/clear, an applied action) or a posted chat line (the log, or the line appended to it).
            assert any(marker in reply for marker in ('id="board"', 'id="chat-log"', "beforeend:#chat-log"))
            if arena.fingerprint(game) != before:  # an applied action or a posted chat line
                counts["changed"] += 1
                arena.opponent_moves(game)

    try:
        send_one()
        _assert_everything_stored_is_clean()
        # Nothing stored breaks a page or a socket: every seat of every fuzzed match still loads and connects.
        client = Client()
        for token in arena.tokens:
            response = client.get(f"/play/{token}/")
            assert response.status_code == 200
            response.content.decode("utf-8")
        for comm in arena.sockets.values():
            arena.run(comm.send_to(text_data='{"kind": "clear"}'))
            assert 'id="board"' in arena.run(comm.receive_from(timeout=TIMEOUT))
    finally:
        arena.close()
        loop.close()
    print(f"frames: {counts}")
    assert counts["refused"] + counts["accepted"] >= FRAMES, counts
    assert counts["refused"] >= FRAMES // 2 and counts["changed"] > 0, counts  # both paths were exercised
