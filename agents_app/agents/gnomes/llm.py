"""LLM access for the Gnomes language module: settings, the client, and the few-shot intent parser (seeds/003 §4.2).

Pure: configuration comes from an environment mapping the caller passes (``LLMSettings.from_env``); the API key's
value is looked up only when a client is made, and is never stored, logged or shown in a repr.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import openai

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import IntentParser, RuleBasedParser

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "gpt-3.5-turbo"  # the model the paper used
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
# Local OpenAI-compatible servers accept any key, but the client refuses to start without one.
PLACEHOLDER_KEY = "not-needed"


@dataclass(frozen=True)
class LLMSettings:
    """Where and how to call the model. ``api_key_env`` is the NAME of the variable holding the key."""

    base_url: str
    model: str
    api_key_env: str = DEFAULT_KEY_ENV
    timeout: float = 10.0
    max_retries: int = 1
    temperature: float = 0.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> LLMSettings | None:
        """Settings from GNOMES_LLM_* (or OPENAI_BASE_URL); None when no endpoint is configured."""
        base_url = (environ.get("GNOMES_LLM_BASE_URL") or environ.get("OPENAI_BASE_URL") or "").strip()
        if not base_url:
            return None
        return cls(
            base_url=base_url,
            model=(environ.get("GNOMES_LLM_MODEL") or "").strip() or DEFAULT_MODEL,
            api_key_env=(environ.get("GNOMES_LLM_API_KEY_ENV") or "").strip() or DEFAULT_KEY_ENV,
        )

    @property
    def display_url(self) -> str:
        """The base URL safe to print: a URL can carry credentials (user:password@host, ?key=...)."""
        return _redact_url(self.base_url)

    def __repr__(self) -> str:
        # The key is never held here; the URL is redacted in case it embeds one.
        return (
            f"LLMSettings(base_url={self.display_url!r}, model={self.model!r}, "
            f"api_key_env={self.api_key_env!r}, timeout={self.timeout!r}, max_retries={self.max_retries!r}, "
            f"temperature={self.temperature!r})"
        )


def _redact_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    if parts.username or parts.password:
        host = f"***@{host}"
    return urlunsplit((parts.scheme, host, parts.path, "***" if parts.query else "", ""))


def make_client(settings: LLMSettings, environ: Mapping[str, str] | None = None) -> openai.OpenAI:
    """An OpenAI client for ``settings``; the key is read now from ``settings.api_key_env`` (default os.environ)."""
    source = os.environ if environ is None else environ
    api_key = source.get(settings.api_key_env) or PLACEHOLDER_KEY
    return openai.OpenAI(
        base_url=settings.base_url, api_key=api_key, timeout=settings.timeout, max_retries=settings.max_retries
    )


# --- Intent parsing ------------------------------------------------------------------------------------------

SYSTEM_PROMPT = """\
You label chat messages from the cooperative maze game Gnomes at Night. Two players take turns moving one \
shared token through a 9x9 maze. Each player sees only the walls on their own side of the board, and the \
treasure is drawn on one side only, so they talk to each other. You read what the partner wrote to us and \
choose the single intent flag that fits it best.

Flags:
STAY, RIGHT, UP, LEFT, DOWN: the partner wants the token moved that way next. This covers instructions, \
suggestions, requests phrased as questions ("could you go up?") and hints about where the treasure lies. \
For a plan of several steps, choose its first step. Waiting or not moving is STAY.
ACCEPT: the partner agrees to do what we asked.
REJECT: the partner refuses what we asked, says they cannot do it, or reports a wall in the way.
INQUIRY: the partner asks for information about the game (the treasure, walls, where we are, which way to go).
NONE: anything else, such as greetings, thanks, feelings, small talk, or a bare "not X" with no alternative.

Reply with one flag word and nothing else."""

# Few-shot examples, deliberately different from the evaluation set in fixtures/gnomes/intents.jsonl.
FEW_SHOT_EXAMPLES: tuple[tuple[str, Flag], ...] = (
    ("head right for now", Flag.RIGHT),
    ("would you step over to the right?", Flag.RIGHT),
    ("could you take us one square up?", Flag.UP),
    ("i'd go left twice and then down", Flag.LEFT),
    ("dont go up. go down", Flag.DOWN),
    ("the treasure's below us", Flag.DOWN),
    ("stay still for a moment", Flag.STAY),
    ("yeah ok doing that", Flag.ACCEPT),
    ("alright, moving there", Flag.ACCEPT),
    ("I can't, that side is walled off for me", Flag.REJECT),
    ("no, my board shows a wall there", Flag.REJECT),
    ("do you know which way the treasure is?", Flag.INQUIRY),
    ("are there any walls around us on your board?", Flag.INQUIRY),
    ("haha this is fun", Flag.NONE),
    ("not left", Flag.NONE),
    ("nice one!", Flag.NONE),
)


def intent_messages(message: str) -> list[dict[str, str]]:
    """The chat prompt: instructions, the examples as earlier turns, then the message to label."""
    turns = [{"role": "system", "content": SYSTEM_PROMPT}]
    for text, flag in FEW_SHOT_EXAMPLES:
        turns += [{"role": "user", "content": _quoted(text)}, {"role": "assistant", "content": flag.value}]
    turns.append({"role": "user", "content": _quoted(message)})
    return turns


def _quoted(text: str) -> str:
    return f"Partner's message: {text!r}"


class UnparseableReply(ValueError):
    """The model answered something that is not a flag."""


def flag_from_reply(reply: str | None) -> Flag:
    """The first word of the reply that is a flag name (any case); no such word is an error."""
    for word in re.findall(r"[A-Za-z]+", reply or ""):
        if word.upper() in Flag.__members__:
            return Flag[word.upper()]
    raise UnparseableReply(f"no flag in the model's reply {(reply or '')[:40]!r}")


class LLMParser:
    """Few-shot LLM intent parser; any failure falls back to ``fallback`` (the rule-based parser by default)."""

    def __init__(self, client: openai.OpenAI, settings: LLMSettings, fallback: IntentParser | None = None):
        self._client = client
        self._settings = settings
        self._fallback = fallback or RuleBasedParser()
        self.last_used_fallback = False

    def parse(self, message: str) -> Flag:
        self.last_used_fallback = False
        if not message or not message.strip():
            return Flag.NONE  # §4.2: empty messages are NONE without asking the model
        try:
            completion = self._client.chat.completions.create(
                model=self._settings.model,
                messages=intent_messages(message),
                temperature=self._settings.temperature,
                max_tokens=8,
            )
            return flag_from_reply(completion.choices[0].message.content)
        except Exception as error:  # any failure must degrade to the rules, never stop a turn
            logger.warning("LLM intent parsing failed (%s); using the rule-based parser", describe_failure(error))
            self.last_used_fallback = True
            return self._fallback.parse(message)


def describe_failure(error: BaseException) -> str:
    """A short, secret-free description of an LLM call failure for logs (no headers, no request data)."""
    if isinstance(error, openai.APIStatusError):
        return f"HTTP {error.status_code}"
    if isinstance(error, openai.APITimeoutError):
        return "timeout"
    if isinstance(error, openai.APIConnectionError):
        return "connection error"
    if isinstance(error, UnparseableReply):
        return str(error)
    return type(error).__name__
