"""Seed 002's evaluations outside play, as prompts and strict readers: theory-of-mind probes of a Who is Spy seat and
DEEP (describe a word aggressively and conservatively; a judge model scores descriptions against words).

Pure: no Django. Every request goes through the one client stack (``ChatCaller``), so each attempt is a ``ModelCall``
the caller stores. A probe sees only one seat's observation text (``State.observation(seat).text``), the game's
public rules summary and the players' public names; never the state. The wording of the probes and of DEEP follows the
seed (its section 4.3 and section 2.1), with a JSON reply format added so that answers can be scored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agents_app.agents.base import ModelCall

from .client import ChatCaller, GiveUp, make_openai_client
from .settings import LLMAgentSettings

if TYPE_CHECKING:  # client.py imports openai when a client is built: it takes 0.8 s to import
    import openai

SPY, VILLAGER = "spy", "villager"
FIRST_ORDER, SECOND_ORDER = "first-order", "second-order"
AGGRESSIVE, CONSERVATIVE = "aggressive", "conservative"
AGGRESSIVE_WORDS, CONSERVATIVE_WORDS = 100, 10


@dataclass
class Exchange:
    """The calls of one question (with its follow-ups) and the last reply's text ("" when none came)."""

    calls: list[ModelCall] = field(default_factory=list)
    text: str = ""
    problem: str = ""  # why no usable reply came (an HTTP failure), else ""


class Asker:
    """Asks one configured model; each ``ask`` is a fresh decision budget (ChatCaller) whose calls it returns."""

    def __init__(self, settings: LLMAgentSettings, *, client: openai.OpenAI | None = None):
        self.settings = settings
        self._client = client if client is not None else make_openai_client(settings)

    def ask(self, messages: list[dict], purpose: str, *, json_mode: bool = False, details: dict | None = None,
            exchange: Exchange | None = None) -> Exchange:
        """Send ``messages``; the reply (or the failure) is added to ``exchange`` (a new one if None)."""
        exchange = exchange if exchange is not None else Exchange()
        caller = ChatCaller(self._client, self.settings)
        try:
            reply = caller.call(messages, purpose=purpose, json_mode=json_mode and self.settings.json_mode,
                                details=details)
            exchange.text, exchange.problem = (reply.text or "").strip(), ""
        except GiveUp as err:
            exchange.text, exchange.problem = "", err.reason
        exchange.calls.extend(caller.calls)
        return exchange


# --- theory-of-mind probes (seed 002, section 4.3) -------------------------------------------------------------

FIRST_ORDER_QUESTION = (
    "It is your turn to guess the keywords and identities of all players, including yourself. "
    "You must identify only {spies}."
)
SECOND_ORDER_QUESTION = (
    "Based on your description, what do you think other players will guess your keyword and identity to be? "
    "Please put yourself in the shoes of other players and guess your own keyword and identity."
)


def probe_messages(kind: str, rules_summary: str, observation_text: str, names: Sequence[str], me: str,
                   spies: int) -> list[dict]:
    """The messages of one probe of the seat called ``me``: its observation just before the first vote, the question
    and the reply format (a JSON object keyed by the players' names)."""
    system = (f"You are {me}, a player of the word game Who is Spy. The rules: {rules_summary}\n"
              "Answer the question about the game as it stands, with a single JSON object and nothing else.")
    others = [n for n in names if n != me]
    if kind == FIRST_ORDER:
        spy_text = "one spy player" if spies == 1 else f"{spies} spy players"
        question = FIRST_ORDER_QUESTION.format(spies=spy_text)
        about = list(names)
        shape = "each player's keyword as you guess it and their identity"
    else:
        question = SECOND_ORDER_QUESTION
        about = others
        shape = "the keyword and the identity that player guesses for you"
    example = {name: {"word": "…", "identity": f"{SPY} or {VILLAGER}"} for name in about[:2]}
    user = (f"Your observation of the game is between <state> and </state>:\n<state>\n{observation_text}\n</state>\n\n"
            f"{question}\n\nReply with one JSON object with a key for every one of {', '.join(about)}, each giving "
            f"{shape} (\"{SPY}\" or \"{VILLAGER}\"), for example {json.dumps(example, ensure_ascii=False)}.")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


class ProbeReplyError(ValueError):
    """The reply cannot be read at all (str(): why)."""


def parse_probe(text: str, about: Sequence[str]) -> tuple[dict[str, dict], list[str]]:
    """The answers per player name ({"word": str | None, "identity": "spy" | "villager" | None}) and notes on what
    could not be read; raises ProbeReplyError when the reply holds no JSON object at all."""
    data = _json_object(text)
    by_key = {_name_key(str(k)): v for k, v in data.items()}
    answers, notes = {}, []
    for name in about:
        value = by_key.get(_name_key(name))
        if not isinstance(value, dict):
            notes.append(f"no answer for {name}")
            answers[name] = {"word": None, "identity": None}
            continue
        word = value.get("word", value.get("keyword"))
        word = normalise_word(word) if isinstance(word, str) else None
        identity = identity_of(value.get("identity", value.get("role")))
        if word is None:
            notes.append(f"no word for {name}")
        if identity is None:
            notes.append(f"no identity for {name}")
        answers[name] = {"word": word, "identity": identity}
    return answers, notes


def _name_key(name: str) -> str:
    """"Player 2", "player2", "2" all read as the same player."""
    digits = re.findall(r"\d+", name)
    return digits[-1] if digits else " ".join(name.casefold().split())


def identity_of(value) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.casefold().split())
    if text in ("not the spy", "not a spy", "not spy"):
        return VILLAGER
    is_spy, is_villager = "spy" in text, "villager" in text or "civilian" in text
    if is_spy != is_villager:
        return SPY if is_spy else VILLAGER
    return None


def normalise_word(word: str) -> str | None:
    cleaned = " ".join(re.sub(r"[^\w\s'-]", " ", word.casefold()).split())
    return cleaned or None


def _json_object(text: str) -> dict:
    stripped = (text or "").strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.DOTALL | re.IGNORECASE)
    if fenced:
        stripped = fenced.group(1)
    try:
        data = json.loads(stripped)
    except ValueError:
        start, end = stripped.find("{"), stripped.rfind("}")
        try:
            data = json.loads(stripped[start:end + 1]) if 0 <= start < end else None
        except ValueError:
            data = None
    if not isinstance(data, dict):
        raise ProbeReplyError("the reply holds no JSON object" if stripped else "the reply was empty")
    return data


# --- DEEP (seed 002, section 2.1) -------------------------------------------------------------------------------

def aggressive_messages(word: str) -> list[dict]:
    return [{"role": "user", "content": (
        f"Please provide a focused, detailed, and accurate description of {word} within a limit of "
        f"{AGGRESSIVE_WORDS} words, so that someone can easily guess {word} based on the description provided. "
        "Reply with the description only.")}]


def candidates_messages(word: str) -> list[dict]:
    return [{"role": "user", "content": (
        f"Imagine other words that might share a common characteristic based on {word}. The candidate words may "
        f"possess the same or similar attributes, and are closely related to the field of {word}. "
        "List the candidate words, separated by commas.")}]


def conservative_request(word: str) -> dict:
    return {"role": "user", "content": (
        f"Please provide a conservative description of {word} within a limit of {CONSERVATIVE_WORDS} words. You can "
        f"describe the most significant commonality of these words so that others cannot guess {word} based on the "
        "description provided. Reply with the description only.")}


def candidate_words(text: str) -> list[str]:
    parts = re.split(r"[,;\n]|\d+[.)]", text or "")
    return [w for w in (normalise_word(p.strip(" -*•")) for p in parts) if w][:30]


def clean_description(text: str, limit: int) -> tuple[str, str]:
    """The description as judged (one line, quotes and a leading label removed, cut to ``limit`` words) and a note
    when it had to be cut ("" otherwise)."""
    one_line = " ".join((text or "").split())
    one_line = re.sub(r"^(?:description|conservative description)\s*:\s*", "", one_line, flags=re.IGNORECASE)
    one_line = one_line.strip().strip('"“”\'').strip()
    words = one_line.split()
    if len(words) > limit:
        return " ".join(words[:limit]), f"cut from {len(words)} to {limit} words"
    return one_line, ""


JUDGE_SYSTEM = (
    "You can only reply to numbers from 1 to 5 in the following statements. Please evaluate the extent to which the "
    "description in this sentence matches the word. 1 denotes \"very inaccurate\" and 5 denotes \"very accurate\"."
)
JUDGE_CORRECTION = "That reply is invalid: reply with a single number from 1 to 5 and nothing else."
_SCORE = re.compile(r"\W*(?:score\W*)?([1-5])(?:\.0+)?\W*", re.IGNORECASE)


def judge_messages(description: str, word: str) -> list[dict]:
    return [{"role": "system", "content": JUDGE_SYSTEM},
            {"role": "user", "content": f"Description: {description}\nWord: {word}"}]


def parse_score(text: str) -> int | None:
    """A judge's score 1-5 (a bare number, optionally "Score: 4" or "4."), else None."""
    found = _SCORE.fullmatch(text or "")
    if found:
        return int(found.group(1))
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        return None
    value = data.get("score") if isinstance(data, dict) else data
    return int(value) if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5 else None
