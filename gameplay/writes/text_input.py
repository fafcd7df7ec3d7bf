"""The one boundary for text that enters the platform: chat, free-text actions, typed moves, URL tokens and
identifiers from links. Pure (no Django, no database): callers turn a refusal into their own kind of error.

A text is accepted when it is a ``str`` of valid Unicode (no lone surrogates, which neither UTF-8 pages nor
the databases can hold), holds no NUL and no other control character (C0, DEL, C1) except newline and tab in
multi-line text, and is not longer than its limit. Multi-line text has CR LF and lone CR turned into LF.

    clean_text(value, max_length=..., multiline=..., what="message") -> the cleaned text, or TextRejected
    clean_token(value) -> the token, or None: a URL token that is not even well formed is simply not found
"""

from __future__ import annotations

import re

__all__ = ["TOKEN_MAX_LENGTH", "TextRejected", "clean_text", "clean_token", "is_clean_token"]


class TextRejected(ValueError):
    """The text is refused; ``str(err)`` says why, in words fit for the person who typed it."""


# Control characters: C0 (U+0000..U+001F), DEL (U+007F) and C1 (U+0080..U+009F). Multi-line text keeps LF and TAB.
_CONTROL_SINGLE_LINE = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_MULTILINE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_NEWLINES = re.compile("\r\n?")

# Seat and participant tokens are secrets.token_urlsafe(): URL-safe base64, at most 64 characters (their column).
TOKEN_MAX_LENGTH = 64
_TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_MAX_LENGTH}}}")


def clean_text(
    value: object, *, max_length: int, multiline: bool = False, strip: bool = True, what: str = "text"
) -> str:
    """``value`` checked and cleaned (stripped unless ``strip=False``), or TextRejected with a clear message.

    ``what`` names the text in the messages ("message", "move", ...). Emptiness is the caller's business: an
    empty string passes. Length is counted in characters, after stripping and newline normalisation.
    """
    if not isinstance(value, str):
        raise TextRejected(f"{what} must be text")
    surrogate = _SURROGATE.search(value)
    if surrogate is not None:
        raise TextRejected(
            f"{what} is not valid Unicode (it contains a lone surrogate, U+{ord(surrogate.group()):04X})"
        )
    if multiline and "\r" in value:
        value = _NEWLINES.sub("\n", value)
    if strip:
        value = value.strip(" \t\n\r")  # a pasted trailing newline is not worth refusing a one-line text for
    control = (_CONTROL_MULTILINE if multiline else _CONTROL_SINGLE_LINE).search(value)
    if control is not None:
        char = control.group()
        if char == "\x00":
            raise TextRejected(f"{what} contains a NUL character")
        allowed = " (only newlines and tabs are allowed)" if multiline else ""
        raise TextRejected(f"{what} contains a control character (U+{ord(char):04X}){allowed}")
    if strip:
        value = value.strip()  # no control characters left: this removes only (Unicode) spaces
    if len(value) > max_length:
        raise TextRejected(f"{what} is longer than {max_length} characters")
    return value


def is_clean_token(value: object, *, max_length: int = TOKEN_MAX_LENGTH) -> bool:
    return isinstance(value, str) and len(value) <= max_length and _TOKEN.fullmatch(value) is not None


def clean_token(value: object, *, max_length: int = TOKEN_MAX_LENGTH) -> str | None:
    """A URL token (seat or participant secret) if it is well formed, else None: callers answer "not found"
    without asking the database, so NUL, surrogates or anything else odd can never reach a query."""
    return value if is_clean_token(value, max_length=max_length) else None
