"""LLM access for the Gnomes language module (seeds/003 §4.2): settings from the environment and the few-shot
intent parser.

The model is reached through the same client code as every other model call on the platform
(``agents_app.agents.llm.client``): one ``LLMAgentSettings``, ``make_openai_client`` (the key is read from the
variable the settings NAME, handed only to the client, never stored, logged or shown), and a ``ChatCaller`` with
its retry policy (429 with Retry-After, 5xx, timeouts and connection errors retried with backoff, within the
decision's deadline) that records every attempt as a ``ModelCall``. The communicating agent returns those
records with its decision, so they are stored like any agent's calls. Any failure falls back to the rules.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import IntentParser, RuleBasedParser
from agents_app.agents.llm.client import ChatCaller, GiveUp
from agents_app.agents.llm.settings import LLMAgentSettings

logger = logging.getLogger(__name__)

SETTINGS_NAME = "gnomes-language"  # how the calls are named in logs
DEFAULT_MODEL = "gpt-3.5-turbo"  # the model the paper used
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_TIMEOUT_S = 10.0
DEFAULT_HTTP_RETRIES = 1
INTENT_MAX_TOKENS = 8


def settings_from_env(environ: Mapping[str, str]) -> LLMAgentSettings | None:
    """Settings from GNOMES_LLM_* (or OPENAI_BASE_URL); None when no endpoint is configured.

    GNOMES_LLM_API_KEY_ENV names the variable holding the key; without it, OPENAI_API_KEY is used when that is
    set, and no key at all otherwise (local OpenAI-compatible servers need none).
    """
    base_url = (environ.get("GNOMES_LLM_BASE_URL") or environ.get("OPENAI_BASE_URL") or "").strip()
    if not base_url:
        return None
    key_env = (environ.get("GNOMES_LLM_API_KEY_ENV") or "").strip()
    if not key_env and environ.get(DEFAULT_KEY_ENV):
        key_env = DEFAULT_KEY_ENV
    return LLMAgentSettings(
        name=SETTINGS_NAME,
        base_url=base_url,
        model=(environ.get("GNOMES_LLM_MODEL") or "").strip() or DEFAULT_MODEL,
        api_key_env=key_env,
        temperature=0.0,
        timeout_s=DEFAULT_TIMEOUT_S,
        http_retries=DEFAULT_HTTP_RETRIES,
        json_mode=False,
    )


# Below this share of agreement with the rule-based parser the communicating agent stops trusting the model
# (GNOMES_LLM_MIN_AGREEMENT, 0 to 1; 0 trusts it always).
DEFAULT_MIN_AGREEMENT = 0.5


def min_agreement_from_env(environ: Mapping[str, str]) -> float:
    raw = (environ.get("GNOMES_LLM_MIN_AGREEMENT") or "").strip()
    if not raw:
        return DEFAULT_MIN_AGREEMENT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        logger.warning("GNOMES_LLM_MIN_AGREEMENT=%r is not a share from 0 to 1; using %s", raw, DEFAULT_MIN_AGREEMENT)
        return DEFAULT_MIN_AGREEMENT
    return value


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
    """Few-shot LLM intent parser; any failure falls back to ``fallback`` (the rule-based parser by default).

    Every request goes through ``caller`` (the decision's ChatCaller), whose ``calls`` then hold one ModelCall
    per attempt, annotated with the flag read from the reply or why none could be read.
    """

    def __init__(self, caller: ChatCaller, fallback: IntentParser | None = None):
        self.caller = caller
        self._fallback = fallback or RuleBasedParser()
        self.last_used_fallback = False

    def parse(self, message: str) -> Flag:
        self.last_used_fallback = False
        if not message or not message.strip():
            return Flag.NONE  # §4.2: empty messages are NONE without asking the model
        try:
            reply = self.caller.call(intent_messages(message), purpose="intent", max_tokens=INTENT_MAX_TOKENS)
            flag = flag_from_reply(reply.text)
        except Exception as error:  # any failure must degrade to the rules, never stop a turn
            if isinstance(error, UnparseableReply):
                self.caller.annotate_last(error=f"invalid reply: {error}")
            logger.warning("LLM intent parsing failed (%s); using the rule-based parser", describe_failure(error))
            self.last_used_fallback = True
            return self._fallback.parse(message)
        self.caller.annotate_last(parsed_action=flag.value)
        return flag


def describe_failure(error: BaseException) -> str:
    """A short, secret-free description of an LLM call failure for logs (no headers, no request data)."""
    if isinstance(error, GiveUp):
        return error.reason  # already scrubbed by the client code
    if isinstance(error, ValueError):  # an unusable reply (UnparseableReply, an empty answer)
        return str(error)
    return type(error).__name__
