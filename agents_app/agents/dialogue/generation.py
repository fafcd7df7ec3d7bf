"""Generating one dialogue turn for the solver's tree, through a cache.

An "LLM seed" is a chance outcome of the solver's tree that stands for one sample of the model. For the samples to
differ, each request carries a sampling seed (OpenAI's ``seed`` parameter) derived from the solve's seed and the
LLM seed's index, and goes out at the configured temperature: two LLM seeds, or two solve seeds, ask for two
different samples. A server that refuses the parameter is asked again without it, once for the whole solve
(``GenerationStats.seed_refused`` says why); the temperature alone then makes the samples differ.

A solver's tree needs the same generated turn every time it asks for it (a second run of a solve reads the first
run's turns and makes no model call), so every model reply is kept under a key made of the model, the exact
request messages, the sampling seed and the temperature. The cache is an interface (``get``/``put``); the Django
side stores it as DialogueGeneration rows, tests use a dict.

A reply that is no usable turn gets one correction; failing that (or when the endpoint cannot be reached) the turn
falls back to ``talk`` (legal in every dialogue game) with the model's message if it wrote one, else a neutral
message. Fallbacks are not cached as replies: a later run asks again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from agents_app.agents.base import ModelCall
from gameplay.engines.seeding import derive_seed

from .prompts import FALLBACK_MOVE, NEUTRAL_MESSAGE, ReplyError, correction_messages, parse_turn_reply


class GenerationCache(Protocol):
    def get(self, key: str) -> str | None: ...

    def put(self, key: str, model: str, messages: list, reply: str) -> None: ...


class DictCache:
    """A cache in memory (tests, benchmarks)."""

    def __init__(self):
        self.replies: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.replies.get(key)

    def put(self, key: str, model: str, messages: list, reply: str) -> None:
        self.replies[key] = reply


# Sampling seeds stay below 2**31: llama.cpp reads the parameter as a 32-bit number, OpenAI and vLLM as an integer.
SEED_RANGE = 2**31 - 1


def sample_seed(solve_seed: int, llm_seed: int) -> int:
    """The sampling seed sent for LLM seed ``llm_seed`` of a solve with seed ``solve_seed``."""
    return derive_seed("dialogue-llm-sample", solve_seed, llm_seed) % SEED_RANGE


def cache_key(model: str, messages: Sequence[dict], seed: int, temperature: float | None = None) -> str:
    payload = json.dumps(
        {"model": model, "messages": list(messages), "seed": seed, "temperature": temperature}, sort_keys=True
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GeneratedTurn:
    move: str
    message: str
    fallback_reason: str = ""


@dataclass
class GenerationStats:
    model_calls: int = 0  # requests sent (every attempt, failed ones too)
    cache_hits: int = 0
    fallbacks: list = field(default_factory=list)  # (what, reason)
    calls: list = field(default_factory=list)  # ModelCall records of this run's requests
    seed_refused: str = ""  # why the server refused the seed parameter ("" : sent and accepted, or never asked)


class Unreachable(Exception):
    """The model gave no reply (``reason`` says why; ``calls`` are the failed attempts); the caller falls back."""

    def __init__(self, reason: str, calls: list | None = None):
        super().__init__(reason)
        self.reason = reason
        self.calls = list(calls or [])


class SeedRefused(Unreachable):
    """The server refused the request because of its ``seed`` parameter: ask again without one."""


# A model caller: (messages, purpose, seed) -> (reply text, the ModelCall records of the attempts); ``seed`` is the
# sampling seed to send (None: none). Raises Unreachable (SeedRefused when the seed parameter was the problem).
ModelCaller = Callable[[list, str, "int | None"], tuple[str, list]]


def chat_model_caller(make_chat_caller: Callable[[], object]) -> ModelCaller:
    """A ModelCaller on the one LLM client stack: a fresh ChatCaller (its own deadline) per request, at the
    temperature of its settings."""
    from agents_app.agents.llm.client import GiveUp  # late: the openai client only when a model is used

    def call(messages: list, purpose: str, seed: int | None = None) -> tuple[str, list]:
        caller = make_chat_caller()
        try:
            reply = caller.call(messages, purpose=purpose, json_mode=True, seed=seed)
        except GiveUp as err:
            # A server without the parameter answers 400 naming it (an unknown or unsupported argument).
            if seed is not None and err.status == 400 and "seed" in err.reason.lower():
                raise SeedRefused(err.reason, caller.calls) from None
            raise Unreachable(err.reason, caller.calls) from None
        return reply.text, list(caller.calls)

    return call


# After this many unreachable requests in a row the model is taken for down: the rest of the solve falls back at
# once instead of waiting out every request's retries (a tree can ask thousands).
DOWN_AFTER = 5


class CachedModel:
    """The model behind a solve: cached replies, counted calls. ``seed`` is the solve's seed (the sampling seeds
    derive from it); ``temperature`` the temperature its caller samples at (None: unknown), part of the cache key."""

    def __init__(self, model: str, caller: ModelCaller, cache: GenerationCache, *, seed: int = 0,
                 temperature: float | None = None):
        self.model = model
        self.seed = seed
        self.temperature = temperature
        self._caller = caller
        self._cache = cache
        self._unreachable_in_a_row = 0
        self.stats = GenerationStats()

    def reply(self, messages: list, llm_seed: int, purpose: str) -> str:
        """The reply to ``messages`` for this LLM seed, from the cache or the model; raises Unreachable."""
        seed = sample_seed(self.seed, llm_seed)
        key = cache_key(self.model, messages, seed, self.temperature)
        cached = self._cache.get(key)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached
        if self._unreachable_in_a_row >= DOWN_AFTER:
            raise Unreachable(f"not asked: the last {DOWN_AFTER} requests found the model unreachable")
        try:
            text, calls = self._ask(messages, purpose, seed)
        except Unreachable as err:
            self._unreachable_in_a_row += 1
            # A deadline can end a decision before any request went out: then one record says so.
            attempts = err.calls or [ModelCall(purpose, list(messages), error=err.reason)]
            self.stats.model_calls += len(err.calls)
            self.stats.calls.extend(attempts)
            raise
        self._unreachable_in_a_row = 0
        self.stats.model_calls += len(calls) or 1
        self.stats.calls.extend(calls)
        self._cache.put(key, self.model, list(messages), text)
        return text

    def _ask(self, messages: list, purpose: str, seed: int) -> tuple[str, list]:
        """One request with the sampling seed, or without it once the server has refused the parameter."""
        if self.stats.seed_refused:
            return self._caller(messages, purpose, None)
        try:
            return self._caller(messages, purpose, seed)
        except SeedRefused as err:
            self.stats.seed_refused = err.reason
            self.stats.model_calls += len(err.calls)
            self.stats.calls.extend(err.calls)
            return self._caller(messages, purpose, None)

    def turn(self, messages: list, legal_ids: Sequence[str], llm_seed: int) -> GeneratedTurn:
        """One turn: a legal move and a message, after at most one correction, else the fallback."""
        try:
            reply = self.reply(messages, llm_seed, "dialogue-turn")
        except Unreachable as err:
            return self._fallback(legal_ids, "", f"model unreachable: {err.reason}")
        try:
            move, message = parse_turn_reply(reply, legal_ids)
            return GeneratedTurn(move, message)
        except ReplyError as err:
            problem = str(err)
        try:
            corrected = self.reply(correction_messages(messages, reply, problem), llm_seed, "correction")
        except Unreachable as err:
            return self._fallback(legal_ids, _message_of(reply), f"{problem}; correction unreachable: {err.reason}")
        try:
            move, message = parse_turn_reply(corrected, legal_ids)
            return GeneratedTurn(move, message)
        except ReplyError as err:
            return self._fallback(legal_ids, _message_of(corrected) or _message_of(reply), f"{problem}; then {err}")

    def _fallback(self, legal_ids: Sequence[str], message: str, reason: str) -> GeneratedTurn:
        """``talk`` with the model's message or a neutral one (a game without ``talk``: its first legal move)."""
        self.stats.fallbacks.append(("turn", reason))
        move = FALLBACK_MOVE if FALLBACK_MOVE in legal_ids or not legal_ids else legal_ids[0]
        return GeneratedTurn(move, message or NEUTRAL_MESSAGE, fallback_reason=reason)


def _message_of(reply: str) -> str:
    """The "message" of a reply whose move was unusable, if it has one."""
    try:
        data = json.loads((reply or "").strip())
    except json.JSONDecodeError:
        return ""
    message = data.get("message") if isinstance(data, dict) else None
    return message.strip() if isinstance(message, str) else ""
