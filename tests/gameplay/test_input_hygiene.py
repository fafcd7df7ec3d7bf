"""Issue 13, "Why" point 3: bad input gets a clear error and changes nothing.

  "One chat frame poisons a match on SQLite: {"kind":"chat","text":"\\ud800"} is stored; from then on both
   seats' pages answer 500 and every websocket closes with 1011. NUL characters give 500 on /play/%00/,
   participant URLs and the websocket handshake. `kind` as a list, JSON nested 5,000 deep or a version of
   ±Infinity kills the socket; a version of 0.9 is accepted as 0."

Text is checked at one boundary, ``gameplay.writes.text_input`` (valid Unicode, no NUL or other control characters,
bounded length), called wherever text enters: chat, free-text actions and typed moves (the services), URL
tokens (the selectors), study link parameters (studies.forms). Frames are schema-checked by the consumer before
any handler runs. Every rejection answers with the error fragment, keeps the socket open and stores nothing.
tests/gameplay/test_fuzz_socket_frames.py, test_fuzz_url_paths.py and test_fuzz_socket_handshakes.py throw
generated frames, URL paths and handshake tokens at the same boundaries.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.test import Client

from gameplay.models import Event, Match
from gameplay.project.asgi import application
from gameplay.reads import selectors
from gameplay.studies import selectors as study_selectors
from gameplay.studies.forms import entry_params
from gameplay.writes import services
from tests.gameplay.ws_support import (
    FLASH_ERROR,
    HUMAN,
    ORIGIN,
    TIMEOUT,
    SeatCommunicator,
    assert_rejected,
    close_all,
    connect,
    fingerprint,
    new_match,
    open_socket,
    version_of,
)
from tests.studies.factories import make_participant, make_study

# --- the text module ---------------------------------------------------------------------------------------
# (imported inside the tests, so the behavioural tests below also run, and fail, on the code before it existed)


def test_text_module_refuses_lone_surrogates_with_a_clear_message():
    from gameplay.writes.text_input import TextRejected, clean_text

    for bad in ("\ud800", "ok \udfff", "\udc80x"):
        with pytest.raises(TextRejected, match="not valid Unicode"):
            clean_text(bad, max_length=100, what="message")
    assert clean_text("naïve 😀 日本", max_length=100) == "naïve 😀 日本"  # real non-ASCII text is fine


def test_text_module_refuses_nul_and_control_characters_but_keeps_newline_and_tab_in_multiline_text():
    from gameplay.writes.text_input import TextRejected, clean_text

    with pytest.raises(TextRejected, match="NUL character"):
        clean_text("a\x00b", max_length=100, multiline=True)
    for control in ("\x1b[2J", "bell\x07", "del\x7f", "c1\x85", "\x0bvt", "ff\x0c"):
        with pytest.raises(TextRejected, match="control character"):
            clean_text(control, max_length=100, multiline=True)
    # Multi-line text (chat) keeps newlines and tabs; CR LF and lone CR become LF.
    assert clean_text("one\r\n\ttwo\rthree", max_length=100, multiline=True) == "one\n\ttwo\nthree"
    # Single-line text (typed moves, tokens, ids) has neither.
    for whitespace in ("a\nb", "a\tb", "a\rb"):
        with pytest.raises(TextRejected, match="control character"):
            clean_text(whitespace, max_length=100)


def test_text_module_checks_type_and_length_and_strips():
    from gameplay.writes.text_input import TextRejected, clean_text

    with pytest.raises(TextRejected, match="message must be text"):
        clean_text(["x"], max_length=10, what="message")
    with pytest.raises(TextRejected, match="message is longer than 10 characters"):
        clean_text("x" * 11, max_length=10, what="message")
    assert clean_text("  hi  ", max_length=4) == "hi"  # length counts after stripping
    assert clean_text("  hi  ", max_length=10, strip=False) == "  hi  "


def test_text_module_token_check_is_not_found_never_an_error():
    from gameplay.writes.text_input import clean_token

    assert clean_token("AbC_-09") == "AbC_-09"
    for bad in (None, 7, "", "\x00", "a\x00", "\ud800", "a b", "a/b", "%00", "é", "x" * 65, ["a"]):
        assert clean_token(bad) is None


# --- chat: the poisoning frame and its relatives -------------------------------------------------------------


async def _page_status(token: str) -> int:
    return await sync_to_async(lambda: Client().get(f"/play/{token}/").status_code)()


async def _still_open(comm) -> None:
    """The socket still answers: a clear frame brings this seat's view back."""
    await comm.send_to(text_data='{"kind": "clear"}')
    assert 'id="board"' in await comm.receive_from(timeout=TIMEOUT)


@pytest.mark.django_db(transaction=True)
async def test_chat_with_a_lone_surrogate_is_refused_and_both_pages_keep_working(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    reply = await assert_rejected(comm0, comm1, match_id, '{"kind": "chat", "text": "\\ud800"}', "not valid Unicode")
    reply.encode("utf-8")  # what daphne must be able to send
    await _still_open(comm0)
    assert await _page_status(tok0) == 200 and await _page_status(tok1) == 200
    again, connected = await open_socket(tok1)
    assert connected
    await close_all(comm0, comm1, again)


@pytest.mark.django_db(transaction=True)
async def test_chat_with_a_nul_character_is_refused(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    await assert_rejected(comm0, comm1, match_id, json.dumps({"kind": "chat", "text": "hi\x00there"}), "NUL")
    await _still_open(comm0)
    await close_all(comm0, comm1)


@pytest.mark.django_db(transaction=True)
async def test_chat_with_control_characters_is_refused_but_newlines_and_tabs_are_kept(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    frame = json.dumps({"kind": "chat", "text": "\x1b[31mred\x1b[0m"})
    await assert_rejected(comm0, comm1, match_id, frame, "control character")
    await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": "line one\n\tline two"}))
    assert FLASH_ERROR not in await comm0.receive_from(timeout=TIMEOUT)
    texts = await sync_to_async(
        lambda: list(Event.objects.filter(match_id=match_id, kind=Event.Kind.MESSAGE).values_list("payload", flat=True))
    )()
    assert [p["text"] for p in texts] == ["line one\n\tline two"]
    await close_all(comm0, comm1)


@pytest.mark.django_db
def test_chat_through_the_service_refuses_bad_text_before_the_database():
    """Agents post chat through the same service: a model's reply with a lone surrogate is refused too."""
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    before = Event.objects.filter(match=match).count()
    for bad, message in (("\ud83d", "not valid Unicode"), ("a\x00", "NUL"), ("\x08", "control character")):
        with pytest.raises(services.ServiceError, match=message):
            services.post_message(match.pk, 0, bad)
    assert Event.objects.filter(match=match).count() == before
    assert Client().get(f"/play/{match.seats.get(index=0).token}/").status_code == 200


# --- free-text actions and typed moves ---------------------------------------------------------------------


@pytest.mark.django_db
def test_free_text_action_with_bad_text_is_refused_at_the_start():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    before = (Event.objects.filter(match=match).count(), Match.objects.get(pk=match.pk).state)
    for bad, message in (("\x00", "NUL"), ("\ud800", "not valid Unicode"), ("\x1b", "control character")):
        with pytest.raises(services.ActionRejected, match=message):
            services.submit_action(match.pk, 0, "place:a1", text=bad, expected_version=0)
    with pytest.raises(services.ActionRejected, match="not valid Unicode"):
        services.submit_action(match.pk, 0, "place:\ud800", expected_version=0)
    assert (Event.objects.filter(match=match).count(), Match.objects.get(pk=match.pk).state) == before


@pytest.mark.django_db(transaction=True)
async def test_typed_move_with_bad_text_is_refused(layer):
    @sync_to_async
    def hive_match():
        match = services.create_match("hive", [HUMAN, HUMAN], seed=1, host_seat=None)
        return match.pk, list(match.seats.order_by("index").values_list("token", flat=True))

    match_id, (tok0, tok1) = await hive_match()
    comm0, html = await connect(tok0)
    comm1, _ = await connect(tok1)
    version = version_of(html)
    for text, message in (("wS1\x00", "NUL"), ("wS1\\ud800", "not valid Unicode"), ("wS1\\u001b", "control")):
        frame = '{"kind": "uhp", "version": ' + str(version) + ', "text": "' + text.replace("\x00", "\\u0000") + '"}'
        await assert_rejected(comm0, comm1, match_id, frame, message)
    await close_all(comm0, comm1)


# --- URL tokens: a bad token is simply "not found" ------------------------------------------------------------


@pytest.mark.django_db
def test_nul_and_broken_tokens_in_play_urls_are_404():
    services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    client = Client()
    for token in ("%00", "a%00b", "%ED%A0%80", "%FF", "x" * 65):
        for suffix in ("", "board.png", "observation.json"):
            assert client.get(f"/play/{token}/{suffix}").status_code == 404, (token, suffix)
        assert client.post(f"/play/{token}/next-round/").status_code == 404, token
    for bad in ("\x00", "\ud800", "a\x00b"):
        assert selectors.seat_by_token(bad) is None


@pytest.mark.django_db
def test_nul_and_broken_tokens_in_participant_urls_are_404():
    study = make_study("hygiene")
    make_participant(study, "H")
    client = Client()
    for token in ("%00", "a%00b", "%ED%A0%80"):
        for suffix in ("", "instructions/", "round/1/", "survey/", "complete/"):
            assert client.get(f"/s/{study.slug}/p/{token}/{suffix}").status_code == 404, (token, suffix)
        assert client.post(f"/s/{study.slug}/p/{token}/heartbeat/").status_code == 404, token
    for bad in ("\x00", "\ud800", "a\x00b"):
        assert study_selectors.participant_by_token(study, bad) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/play/%00/", "/ws/play/a%00b/", "/ws/play/\ud800/", "/ws/play/%ED%A0%80/"])
async def test_nul_in_the_websocket_handshake_is_refused_cleanly(layer, path):
    await new_match()
    comm = SeatCommunicator(application, path, headers=ORIGIN)
    connected, code = await comm.connect(timeout=TIMEOUT)  # raised (a 500 / 1011) before
    assert connected is False and code != 1011


# --- study link parameters ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_study_link_parameters_with_bad_text_count_as_absent():
    params = entry_params(
        {"PROLIFIC_PID": "abc\x00", "STUDY_ID": "\ud800", "SESSION_ID": "s\x1b", "condition": "H" * 41}
    )
    # A condition key one character too long used to be cut to 40 characters (possibly another condition's key).
    assert (params.prolific_pid, params.study_id, params.session_id, params.condition) == ("", "", "", "")
    assert entry_params({"PROLIFIC_PID": " 5f0c1a2b ", "condition": "H"}).prolific_pid == "5f0c1a2b"
    study = make_study("hygiene-entry")
    response = Client().get(f"/s/{study.slug}/?PROLIFIC_PID=%00&STUDY_ID=%ED%A0%80&condition=%1B")
    assert response.status_code == 200 and "\x00" not in response.content.decode()


# --- frames: schema-checked before any handler -------------------------------------------------------------


def _version_frame(version: str) -> str:
    return '{"kind": "action", "action_id": "place:a1", "version": ' + version + "}"  # legal at version 0


def _constant_frame(constant: str) -> str:
    return '{"kind": "chat", "text": "hello", "HEADERS": {"x": ' + constant + "}}"  # was stored as a chat line


# Every malformed frame: (frame, words of the error fragment). Each must be refused with that error, change
# nothing for either seat, keep the socket open and never echo the frame back.
MALFORMED_FRAMES = [
    # "kind" that is not a string
    pytest.param('{"kind": ["chat"], "text": "hi"}', "Unknown message kind", id="kind-list"),
    pytest.param('{"kind": {"chat": 1}, "text": "hi"}', "Unknown message kind", id="kind-object"),
    pytest.param('{"kind": 1, "text": "hi"}', "Unknown message kind", id="kind-number"),
    # nesting far beyond a frame's two levels
    pytest.param('{"kind": "chat", "text": "hi", "x": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply",
                 id="list-5000-deep"),
    pytest.param('{"kind": "chat", "text": "hi", "x": ' + '{"a":' * 2000 + "1" + "}" * 2000 + "}",
                 "nested too deeply", id="obj-2000"),
    pytest.param("[" * 8000 + "]" * 8000, "nested too deeply", id="bare-8000-deep"),
    pytest.param('{"kind": "chat", "text": "hi", "HEADERS": {"a": {"b": {"c": {"d": [[1]]}}}}}', "nested too deeply",
                 id="depth-7"),
    # versions that are not a finite non-negative integer
    pytest.param(_version_frame("0.9"), "malformed version", id="fraction"),  # was applied as version 0
    pytest.param(_version_frame("0.0"), "malformed version", id="float-zero"),
    pytest.param(_version_frame("true"), "malformed version", id="true"),
    pytest.param(_version_frame("false"), "malformed version", id="false"),  # was applied as version 0
    pytest.param(_version_frame('"0.9"'), "malformed version", id="string-fraction"),
    pytest.param(_version_frame('"\u0660"'), "malformed version", id="arabic-indic-zero"),  # int() reads it as 0
    pytest.param(_version_frame('" 0"'), "malformed version", id="padded-string"),
    pytest.param(_version_frame("[0]"), "malformed version", id="list"),
    pytest.param(_version_frame("-1"), "malformed version", id="negative"),
    pytest.param(_version_frame("1" + "0" * 30), "malformed version", id="huge-int"),
    pytest.param(_version_frame("Infinity"), "must be finite", id="infinity"),  # killed the socket
    pytest.param(_version_frame("-Infinity"), "must be finite", id="minus-infinity"),
    pytest.param(_version_frame("NaN"), "must be finite", id="nan"),
    pytest.param(_version_frame("1e400"), "must be finite", id="overflowing-float"),
    # non-finite JSON constants anywhere in the frame
    pytest.param(_constant_frame("NaN"), "Malformed message", id="constant-nan"),
    pytest.param(_constant_frame("Infinity"), "Malformed message", id="constant-infinity"),
    pytest.param(_constant_frame("-Infinity"), "Malformed message", id="constant-minus-infinity"),
    # fields of the wrong type or with bad text
    pytest.param('{"kind": "action", "action_id": ["place:a1"], "version": 0}', "malformed action id",
                 id="action-id-list"),
    pytest.param('{"kind": "action", "action_id": "place:a1", "version": 0, "text": {"a": 1}}', "text",
                 id="action-text-object"),
    pytest.param('{"kind": "action", "action_id": "place:a1", "version": 0, "text": 5}', "text",
                 id="action-text-number"),
    pytest.param('{"kind": "uhp", "version": 0, "text": ["wS1"]}', "text", id="uhp-text-list"),
    pytest.param('{"kind": "select", "location": "\\ud800"}', "not valid Unicode", id="location-surrogate"),
    pytest.param('{"kind": "select", "location": "c3\\u0000"}', "NUL", id="location-nul"),
    pytest.param('{"kind": "action", "action_id": "place:\\ud800", "version": 0}', "not valid Unicode",
                 id="action-id-surrogate"),
    pytest.param('{"kind": "chat", "text": "%s"}' % ("y" * 5000), "longer than", id="chat-too-long"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("frame, message", MALFORMED_FRAMES)
async def test_a_malformed_frame_is_refused_changes_nothing_and_keeps_the_socket(layer, frame, message):
    assert len(frame) <= django_settings.MAX_FRAME_BYTES  # refused for what it holds, not for its size
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    reply = await assert_rejected(comm0, comm1, match_id, frame, message)
    reply.encode("utf-8")  # what daphne must be able to send
    assert "1" + "0" * 30 not in reply  # the frame is never echoed back
    await _still_open(comm0)
    await close_all(comm0, comm1)


@pytest.mark.django_db(transaction=True)
async def test_version_as_a_digit_string_is_accepted_as_forms_send_it(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    await comm0.send_to(text_data='{"kind": "action", "action_id": "place:a1", "version": "0"}')
    assert version_of(await comm0.receive_from(timeout=TIMEOUT)) == 1
    assert (await fingerprint(match_id))[1] == 1
    await close_all(comm0, comm1)
