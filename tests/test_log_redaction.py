"""Seat tokens, participant tokens and Prolific ids never reach a log (issue 13, point 1: "PIDs travel in URLs and
sit in daphne's access log next to seat tokens")."""

from __future__ import annotations

import io
import logging
import sys
import types

import pytest
from daphne.access import AccessLogGenerator

from gameplay.project import log_redaction
from gameplay.project.log_redaction import REDACTED, redact

SEAT, PARTICIPANT, PID = "SeAtToKeN_123-abc", "PaRtIcIpAnT_tok-456", "5f0c1a2b3c4d5e6f7a8b9c0d"
SECRETS = (SEAT, PARTICIPANT, PID, "STUDYxyz", "SESSIONxyz")


@pytest.mark.parametrize(
    ("path", "kept"),
    [
        (f"/play/{SEAT}/", "/play/"),
        (f"/play/{SEAT}/board.png?x=1", "/board.png?x=1"),
        (f"/ws/play/{SEAT}/", "/ws/play/"),
        (f"/s/pilot/p/{PARTICIPANT}/round/2/", "/s/pilot/p/"),
        (f"/s/pilot/?PROLIFIC_PID={PID}&STUDY_ID=STUDYxyz&SESSION_ID=SESSIONxyz&condition=H", "condition=H"),
        (f"/admin/login/?next=/s/pilot/%3FPROLIFIC_PID%3D{PID}", "/admin/login/"),
        (f'"GET /play/{SEAT}/ HTTP/1.1" 200 512', "HTTP/1.1"),
        (f"/invite/{SEAT}/", "/invite/"),  # an invite link claims a seat: a credential too
        (f'"POST /invite/{SEAT}/ HTTP/1.1" 302 0', "HTTP/1.1"),
    ],
)
def test_tokens_and_ids_are_replaced_by_a_marker(path, kept):
    out = redact(path)
    assert REDACTED in out and kept in out
    assert not any(secret in out for secret in SECRETS)


def test_other_paths_are_left_alone():
    for path in ("/", "/matches/12/replay/", "/s/pilot/", "/studies/pilot/", "/s/pilot/consent/"):
        assert redact(path) == path


def _emit(logger_name: str, msg: str, args) -> str:
    """What the project's LOGGING writes for a record logged on ``logger_name``."""
    stream = io.StringIO()
    capture = logging.StreamHandler(stream)
    root = logging.getLogger()
    logger = logging.getLogger(logger_name)
    root.addHandler(capture)
    logger.addHandler(capture)  # also catches loggers that do not propagate (django.server)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        logger.warning(msg, args)
    finally:
        logger.setLevel(old_level)
        logger.removeHandler(capture)
        root.removeHandler(capture)
    return stream.getvalue()


def test_daphne_runserver_request_lines_are_redacted():
    details = {"method": "GET", "path": f"/s/pilot/?PROLIFIC_PID={PID}", "status": 200, "time_taken": 0.01,
               "client": "127.0.0.1:5"}
    out = _emit("django.channels.server", "HTTP %(method)s %(path)s %(status)s [%(time_taken).2f, %(client)s]",
                details)
    assert "HTTP GET /s/pilot/?PROLIFIC_PID=" + REDACTED in out and PID not in out
    ws = _emit("django.channels.server", "WebSocket CONNECT %(path)s [%(client)s]", {"path": f"/ws/play/{SEAT}/",
                                                                                      "client": "x"})
    assert SEAT not in ws and f"/ws/play/{REDACTED}/" in ws


def test_django_request_and_server_lines_are_redacted():
    out = _emit("django.request", "Not Found: %s", f"/s/pilot/p/{PARTICIPANT}/survey/")
    assert PARTICIPANT not in out and f"/s/pilot/p/{REDACTED}/survey/" in out
    out = _emit("django.server", '"%s" %s %s', f"GET /play/{SEAT}/ HTTP/1.1")
    assert SEAT not in out


def test_the_filter_rewrites_a_records_message_and_args():
    record = logging.LogRecord("daphne.http_protocol", logging.ERROR, __file__, 1,
                               f"failed on /play/{SEAT}/ for %s (%d)", (f"/s/x/p/{PARTICIPANT}/", 3), None)
    assert log_redaction.RedactSecrets().filter(record) is True
    assert SEAT not in record.getMessage() and PARTICIPANT not in record.getMessage()
    assert record.args[1] == 3


def test_the_daphne_commands_access_log_is_redacted(monkeypatch):
    # The daphne command writes its access log to stdout without logging: the filter factory, run when Django
    # configures logging (before daphne creates the access log), swaps in a redacting generator.
    fake_cli = types.ModuleType("daphne.cli")
    fake_cli.AccessLogGenerator = AccessLogGenerator
    monkeypatch.setitem(sys.modules, "daphne.cli", fake_cli)
    log_redaction.redacting_filter()
    stream = io.StringIO()
    access_log = fake_cli.AccessLogGenerator(stream)
    access_log("http", "complete", {"client": "1.2.3.4:5", "method": "GET", "status": 200, "size": 10,
                                    "path": f"/s/pilot/?PROLIFIC_PID={PID}"})
    access_log("websocket", "connected", {"client": "1.2.3.4:5", "path": f"/ws/play/{SEAT}/"})
    out = stream.getvalue()
    assert PID not in out and SEAT not in out and out.count(REDACTED) == 2
    log_redaction.redacting_filter()  # idempotent: not wrapped twice
    assert fake_cli.AccessLogGenerator.__mro__[1] is AccessLogGenerator
