"""Keep credentials and panel ids out of access and request logs.

Request paths carry secrets: a seat token (/play/<token>/…, /ws/play/<token>/) lets anyone play that seat, an
invite token (/invite/<token>/) lets anyone claim the seat it was sent for, a
participant token (/s/<slug>/p/<token>/…) opens that participant's study pages, and the study link's
PROLIFIC_PID / STUDY_ID / SESSION_ID identify a person on the panel. Whoever reads a log must not get them, so
every such value is replaced by ``REDACTED`` before a record is written.

Where request lines are logged (daphne 4, Django 5):
- ``manage.py runserver`` is daphne's (daphne is in INSTALLED_APPS): logger ``django.channels.server``, the
  path in the record's dict args;
- Django's own WSGI runserver (``runserver --nothreading`` without daphne): ``django.server``;
- 4xx/5xx answers: ``django.request`` ("Not Found: /play/…"), the path in the args;
- the ``daphne`` command writes its access log straight to stdout through ``daphne.access.AccessLogGenerator``,
  not through logging: ``redacting_filter`` (the LOGGING filter factory, run when Django configures logging,
  before daphne builds its access logger) swaps in a subclass that redacts the path first.
"""

from __future__ import annotations

import logging
import re
import sys

REDACTED = "[redacted]"

# A path segment after /play/, /ws/play/, /invite/ or /s/<slug>/p/ is a token; so is everything up to the next / ? # or
# space (a whole log line may be passed in, e.g. '"GET /play/abc/ HTTP/1.1" 200').
_TOKEN_PATHS = re.compile(r"(/(?:ws/)?play/|/invite/|/s/[^/?#\s]+/p/)[^/?#\s\"']+")
_ID_PARAMS = re.compile(r"((?:^|[?&;])(?:PROLIFIC_PID|STUDY_ID|SESSION_ID)=)[^&#\s\"']*", re.IGNORECASE)
# The same, percent-encoded inside another parameter (e.g. ?next=/s/x/%3FPROLIFIC_PID%3D…).
_ENCODED_ID_PARAMS = re.compile(r"((?:PROLIFIC_PID|STUDY_ID|SESSION_ID)%3D)[^&%#\s\"']*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every token in a token path and every panel id parameter replaced by REDACTED."""
    if not isinstance(text, str) or not text:
        return text
    text = _TOKEN_PATHS.sub(lambda m: m.group(1) + REDACTED, text)
    text = _ID_PARAMS.sub(lambda m: m.group(1) + REDACTED, text)
    return _ENCODED_ID_PARAMS.sub(lambda m: m.group(1) + REDACTED, text)


def _redact_arg(value):
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and its string arguments (a tuple, or daphne's dict) in place; never drops
    a record. Other arguments (numbers, the request object of django.request) are left as they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _redact_arg(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(v) for v in record.args)
        return True


def redacting_filter() -> RedactSecrets:
    """The LOGGING filter factory: the filter, and daphne's stdout access log made to redact too."""
    redact_daphne_access_log()
    return RedactSecrets()


def redact_daphne_access_log() -> None:
    """Under the ``daphne`` command only (daphne.cli already imported; importing it elsewhere would install
    Twisted's reactor), make the access log it is about to create redact paths."""
    cli = sys.modules.get("daphne.cli")
    if cli is None or getattr(cli.AccessLogGenerator, "redacts", False):
        return
    cli.AccessLogGenerator = type(
        "RedactingAccessLogGenerator",
        (cli.AccessLogGenerator,),
        {"redacts": True, "__call__": _redacting_call(cli.AccessLogGenerator.__call__)},
    )


def _redacting_call(call):
    def __call__(self, protocol, action, details):
        if isinstance(details, dict) and isinstance(details.get("path"), str):
            details = {**details, "path": redact(details["path"])}
        return call(self, protocol, action, details)

    return __call__
