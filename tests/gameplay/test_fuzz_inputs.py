"""Fuzz (issue 13, "Deliver" point 3): generated websocket frames and URL paths get an answer, never a server
error, and what is refused changes nothing.

- 1,000 frames per database (2,000 in a CI run, which plays both) over a real WebsocketCommunicator (the whole
  ASGI stack): random JSON values, wrong types,
  lone surrogates, NUL and other control characters, huge and deeply nested structures, NaN and ±Infinity,
  random kinds, truncated JSON, binary frames, and plausible frames built from the live match (its version,
  its legal actions) so that the accepting paths run too. Every frame must be answered with a text frame (a
  socket closed with 1011 or an exception fails the test) that daphne could send (valid UTF-8); a frame
  answered with the error fragment must leave the match's event count, version, state and status unchanged.
- 500 URL paths through Django's test client: seat, participant, study, match and replay URLs with tokens and
  parameters made of random bytes (%00, broken UTF-8, surrogate encodings, ...), real tokens with junk around
  them. No answer is a 5xx and nothing stored changes (the requests are GETs, and POSTs with unknown tokens).
- Afterwards everything stored is clean text and every page of the fuzzed matches still loads.

Runs in phase 1 (SQLite) and phase 2 (PostgreSQL: .ci/test runs tests/gameplay there). About 40 s here.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
from urllib.parse import quote

import pytest
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.models import Event, Match, Seat
from gameplay.project.asgi import application
from gameplay.reads.selectors import state_of
from gameplay.studies.models import Participant, ParticipantRound, Study
from gameplay.writes import services
from gameplay.writes.text_input import clean_text
from tests.gameplay.ws_support import FLASH_ERROR, HUMAN, ORIGIN, TIMEOUT, SeatCommunicator, is_presence_only
from tests.studies.factories import make_participant, make_study, play_round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

FRAMES = 1_000  # in each of the two phases (SQLite, then PostgreSQL): 2,000 in a CI run
URLS = 500
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
KINDS = ("action", "chat", "select", "clear", "uhp")  # what the consumer knows (gameplay.web.consumers.KINDS)

# --- generated values ----------------------------------------------------------------------------------------

NASTY = [
    "\x00", "\ud800", "\udbff", "\udc00", "\udfff", "\x1b", "\x07", "\x7f", "\x85", "\x9f", "\r", "\n", "\t",
    "\u2028", "\ufeff", "\u202e", "\U0001f600", '"', "\\", "<", "&", "'", " ",
]
any_char = st.characters(codec=None, exclude_categories=())  # every code point, surrogates included
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


@pytest.fixture
def memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # The schema is under test here, not the per-seat rate limits (test_socket_limits.py): 2,000 frames in ~40 s.
    settings.MAX_FRAMES_PER_SECOND = settings.MAX_CHAT_PER_MINUTE = 1_000_000
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


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


def test_fuzz_websocket_frames(memory_layer):
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


# --- URL paths -----------------------------------------------------------------------------------------------


def _segment(raw_bytes: bytes) -> str:
    return quote(raw_bytes, safe="")


junk_bytes = st.one_of(
    st.binary(max_size=12),
    st.lists(st.sampled_from([b"\x00", b"\xed\xa0\x80", b"\xff", b"\xc0\x80", b"\x1b", b"/", b"%", b"?", b"a",
                              b"\xf4\x90\x80\x80", b"\xe2\x80\xae", b".."]), max_size=6).map(b"".join),
    st.text(any_char, max_size=10).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.integers(60, 300).map(lambda n: b"x" * n),
)
PLAY_SUFFIXES = ["", "board.png", "observation.json", "board.png?step=%00"]
PARTICIPANT_SUFFIXES = ["", "instructions/", "round/1/", "round/1/status/", "wait/1/", "wait/1/status/",
                        "survey/", "complete/", "ended/", "round/99999999999999999999/"]
QUERY_NAMES = ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "condition", "step", "since", "%00", "a"]


@st.composite
def url_requests(draw, world: dict) -> tuple[str, str]:
    """(method, path): GETs of every kind; POSTs only where the token is not a real one."""
    junk = _segment(draw(junk_bytes))
    real_seat = draw(st.sampled_from(world["seat_tokens"]))
    real_participant = draw(st.sampled_from(world["participant_tokens"]))
    use_real = draw(st.booleans())
    seat = draw(st.sampled_from([real_seat, real_seat + junk, junk + real_seat])) if use_real else junk
    person = draw(st.sampled_from([real_participant, real_participant + junk])) if use_real else junk
    slug = draw(st.sampled_from([world["slug"], world["slug"], junk, world["slug"] + junk]))
    if not use_real and draw(st.booleans()):  # writes are only tried with tokens that are not real
        posts = [f"/play/{seat}/next-round/", f"/s/{slug}/p/{person}/heartbeat/",
                 f"/s/{slug}/p/{person}/round/1/start/", f"/s/{slug}/p/{person}/survey/"]
        return "POST", draw(st.sampled_from(posts))
    number = draw(st.sampled_from([str(world["match_id"]), "0", "99999999999999999999", junk]))
    path = draw(
        st.sampled_from([
            f"/play/{seat}/{draw(st.sampled_from(PLAY_SUFFIXES))}",
            f"/s/{slug}/p/{person}/{draw(st.sampled_from(PARTICIPANT_SUFFIXES))}",
            f"/s/{slug}/",
            f"/s/{slug}/declined/",
            f"/matches/{number}/",
            f"/matches/{number}/replay/",
            f"/matches/{number}/board.png",
            f"/matches/{number}/transcripts.jsonl",
            f"/games/{junk}/new/",
            f"/{junk}/",
            f"/ws/play/{seat}/",
        ])
    )
    query = "&".join(
        f"{draw(st.sampled_from(QUERY_NAMES))}={_segment(draw(junk_bytes))}" for _ in range(draw(st.integers(0, 3)))
    )
    if query:
        path += ("&" if "?" in path else "?") + query
    return "GET", path


def _stored() -> tuple:
    """Everything a request could change: matches, events, seats, participants and their rounds, studies."""
    return (
        list(Match.objects.order_by("pk").values_list("pk", "version", "status", "state")),
        Event.objects.count(),
        list(Seat.objects.order_by("pk").values_list("pk", "joined_at")),
        list(Participant.objects.order_by("pk").values_list("pk", "step", "round_index", "last_seen_at")),
        ParticipantRound.objects.count(),
        list(Study.objects.order_by("pk").values_list("pk", "declined_count")),
    )


def test_fuzz_url_paths():
    study = make_study("fuzz")
    participants = [make_participant(study, "A-Comm"), make_participant(study, "H", step=Participant.Step.SURVEY)]
    match = play_round(participants[:1], 0, agent="gnomes-comm", outcome="playing",
                       messages=[(1, 0, "hello\tthere")])
    world = {
        "slug": study.slug,
        "match_id": match.pk,
        "seat_tokens": list(Seat.objects.values_list("token", flat=True)),
        "participant_tokens": [p.token for p in participants],
    }
    client = Client()
    before = _stored()
    statuses: dict[int, int] = {}

    @settings(max_examples=URLS, deadline=None, suppress_health_check=HEALTH)
    @given(request=url_requests(world))
    def request_one(request):
        method, path = request
        response = client.post(path) if method == "POST" else client.get(path)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code < 500, (method, path, response.status_code)
        if response.get("Content-Type", "").startswith("text/") and not response.streaming:
            response.content.decode("utf-8")  # whatever a page shows, it is valid UTF-8
        assert _stored() == before, (method, path)

    request_one()
    print(f"URL answers by status: {dict(sorted(statuses.items()))}")
    assert sum(statuses.values()) >= URLS and statuses.get(404, 0) > 0 and statuses.get(200, 0) > 0, statuses


handshake_tokens = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=(), exclude_characters="/?#%"), max_size=80),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=8).map("".join),  # NUL, lone surrogates, controls
    st.text(string.printable.replace("/", "").replace("?", "").replace("#", ""), max_size=80),
    # Percent-encoded bytes: the path is decoded as daphne does (broken UTF-8 becomes U+FFFD), "/" left out.
    junk_bytes.map(lambda b: _segment(b.replace(b"/", b""))),
)


def test_fuzz_websocket_handshake_tokens(memory_layer):
    """Handshakes with random tokens are refused cleanly (no exception, no 1011) and mark no seat as joined."""
    services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    loop = asyncio.new_event_loop()
    before = list(Seat.objects.order_by("pk").values_list("pk", "joined_at"))

    async def handshake(token: str) -> tuple[bool, int]:
        comm = SeatCommunicator(application, f"/ws/play/{token}/", headers=ORIGIN)
        connected, code = await comm.connect(timeout=TIMEOUT)
        await comm.disconnect()
        return connected, code

    @settings(max_examples=300, deadline=None, suppress_health_check=HEALTH)
    @given(token=handshake_tokens)
    def refused(token):
        connected, code = loop.run_until_complete(handshake(token))
        assert connected is False and code != 1011, (token, code)

    try:
        refused()
    finally:
        loop.close()
    assert list(Seat.objects.order_by("pk").values_list("pk", "joined_at")) == before
