"""Calling the model: one chat request with our own HTTP retries, a per-decision deadline and a transcript.

The openai client is built with ``max_retries=0`` because retrying here lets every attempt be recorded as a
ModelCall, lets Retry-After be honoured through an injectable ``sleep`` (tests do not wait), and lets every wait
be cut short by the decision's deadline.
"""

from __future__ import annotations

import base64
import copy
import email.utils
import hashlib
import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from agents_app.agents.base import ModelCall

from .settings import LLMAgentSettings

if TYPE_CHECKING:  # imported where it is used: openai takes 0.8 s to import, and most commands never call a model
    import openai

logger = logging.getLogger(__name__)

# Local OpenAI-compatible servers need no key, but the client refuses to start without one. Passing this
# placeholder also stops the client from silently reading OPENAI_API_KEY when the settings name no variable.
PLACEHOLDER_KEY = "no-key"
RETRY_AFTER_CAP_S = 30.0
BACKOFF_FIRST_S = 0.5
BACKOFF_CAP_S = 8.0
# Statuses worth retrying (as the openai client itself does): request timeout, conflict, rate limit, server errors.
_RETRIED_STATUSES = {408, 409, 429}
# Below this many seconds left there is no point in starting a request.
_MIN_CALL_S = 0.05
_ERROR_TEXT_LIMIT = 300


def make_openai_client(settings: LLMAgentSettings, environ: Mapping[str, str] | None = None) -> openai.OpenAI:
    """An OpenAI client for the settings; the key is looked up now and handed only to the client."""
    import openai
    source = os.environ if environ is None else environ
    problem = settings.key_env_problem()
    if problem:
        # A refused variable is never read; ChatCaller then refuses every request (see ChatCaller.call).
        logger.error("LLM agent %s: API key variable refused: %s", settings.name, problem)
        api_key = ""
    else:
        api_key = source.get(settings.api_key_env, "") if settings.api_key_env else ""
        if settings.api_key_env and not api_key:
            logger.warning("LLM agent %s: environment variable %s is not set", settings.name, settings.api_key_env)
    return openai.OpenAI(
        base_url=settings.base_url,
        api_key=api_key or PLACEHOLDER_KEY,
        timeout=settings.timeout_s,
        max_retries=0,
        http_client=shared_http_client(),
    )


_http_client: tuple[int, openai.DefaultHttpxClient] | None = None
_http_client_lock = threading.Lock()


def shared_http_client() -> openai.DefaultHttpxClient:
    """The process's HTTP client for model calls: agents are built per decision, and a new client each time built
    a new TLS context (loading the CA certificates: a tenth of a busy server's time in a study with an LLM
    partner) and dropped its open connections. It is thread-safe and holds no key (the key goes with each request
    from its own OpenAI client). A process forked from this one (a Celery worker) makes its own.
    The key goes to the configured host only: a redirect is an error, never followed with the key."""
    import openai
    global _http_client
    with _http_client_lock:
        if _http_client is None or _http_client[0] != os.getpid():
            _http_client = (os.getpid(), openai.DefaultHttpxClient(follow_redirects=False))
        return _http_client[1]


class GiveUp(Exception):
    """The model could not be reached usefully for this decision; ``reason`` says why (no secrets)."""

    def __init__(self, reason: str, status: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.status = status  # the HTTP status of the last failed request, if it got one


class DeadlineReached(GiveUp):
    """The decision's wall-time budget is spent."""


@dataclass(frozen=True)
class TokenChoice:
    """One generated token with its log-probability and the alternatives (token -> logprob) the model saw."""

    token: str
    logprob: float
    alternatives: Mapping[str, float]


@dataclass(frozen=True)
class ChatReply:
    text: str
    refusal: str = ""
    # None when the endpoint sent no token log-probabilities (asked for or not).
    logprobs: tuple[TokenChoice, ...] | None = None


class ChatCaller:
    """Makes the chat calls of one decision and records each attempt in ``calls``."""

    def __init__(
        self,
        client: openai.OpenAI,
        settings: LLMAgentSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        budget_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._client = client
        self._settings = settings
        self._sleep = sleep
        self._clock = clock
        self.budget_s = settings.decision_budget_s() if budget_s is None else budget_s
        self._deadline = clock() + self.budget_s
        self.calls: list[ModelCall] = []

    def seconds_left(self) -> float:
        return self._deadline - self._clock()

    def call(
        self,
        messages: Sequence[dict],
        *,
        purpose: str,
        json_mode: bool = False,
        logprobs: bool = False,
        max_tokens: int | None = None,
        response_format: dict | None = None,
        details: dict | None = None,
        seed: int | None = None,
    ) -> ChatReply:
        """One chat completion, retried on transient HTTP failures; raises GiveUp when it cannot get one.
        ``response_format`` (e.g. a JSON schema) wins over ``json_mode``; ``details`` go on every attempt's record
        (e.g. the reply format asked for). ``seed`` goes out as OpenAI's ``seed`` parameter (best-effort
        reproducible sampling where the server supports it; a dialogue solver's "LLM seed") and on the record."""
        import openai
        request = {
            "model": self._settings.model,
            "messages": list(messages),
            "temperature": self._settings.temperature,
            "max_tokens": max_tokens or self._settings.max_tokens,
        }
        if response_format is not None:
            request["response_format"] = response_format
        elif json_mode:
            request["response_format"] = {"type": "json_object"}
        if logprobs:
            request["logprobs"] = True
            request["top_logprobs"] = 5
        if seed is not None:
            request["seed"] = int(seed)
            details = {**(details or {}), "seed": int(seed)}
        recorded = redact_messages(messages)
        refused = self._settings.key_env_problem()
        if refused:
            # Checked again here, not only in the admin: a row saved past the form (loaddata, shell) sends nothing.
            logger.error("LLM agent %s: not sending the request: %s", self._settings.name, refused)
            problem = f"request not sent: API key variable refused: {refused}"
            self.calls.append(ModelCall(purpose, recorded, error=problem, latency_ms=0, details=details))
            raise GiveUp(problem)
        for attempt in range(self._settings.http_retries + 1):
            left = self.seconds_left()
            if left < _MIN_CALL_S:
                raise DeadlineReached(f"decision deadline of {self.budget_s:.0f} s reached")
            started = time.monotonic()
            try:
                completion = self._client.chat.completions.create(
                    **request, timeout=min(self._settings.timeout_s, left)
                )
            except openai.APIError as err:
                problem = self._describe(err)
                wait = _retry_wait(err, attempt)
                status = getattr(err, "status_code", None)
            else:
                if isinstance(getattr(completion, "choices", None), list):
                    return self._record_success(completion, purpose, recorded, _ms_since(started), details)
                # A 2xx that is no completion (e.g. a proxy's HTML page) is as transient as a 5xx.
                problem = self._scrub(f"the endpoint's reply is not a chat completion: {str(completion)[:100]!r}")
                wait, status = _backoff(attempt), None
            self.calls.append(
                ModelCall(purpose, recorded, error=problem, latency_ms=_ms_since(started), details=details)
            )
            if wait is None:
                raise GiveUp(f"model request failed: {problem}", status)
            if attempt == self._settings.http_retries:
                raise GiveUp(f"model request failed {attempt + 1} times; last: {problem}", status)
            if wait >= self.seconds_left():
                raise DeadlineReached(
                    f"decision deadline of {self.budget_s:g} s reached: no time left to retry after: {problem}"
                )
            logger.info("LLM agent %s: %s; retrying in %g s", self._settings.name, problem, wait)
            self._sleep(wait)
        raise AssertionError("unreachable")  # the loop always returns or raises

    def annotate_last(self, *, parsed_action: str = "", error: str = "", details: dict | None = None) -> None:
        """Add what the agent made of the latest reply to its record (``details`` kept when not given)."""
        if self.calls:
            last = self.calls[-1]
            self.calls[-1] = replace(
                last, parsed_action=parsed_action, error=error, details=last.details if details is None else details
            )

    def _record_success(self, completion, purpose: str, recorded: list, latency: int,
                        details: dict | None = None) -> ChatReply:
        choice = completion.choices[0] if completion.choices else None
        message = choice.message if choice is not None else None
        text = (message.content or "") if message is not None else ""
        refusal = (getattr(message, "refusal", None) or "") if message is not None else ""
        usage = completion.usage
        self.calls.append(
            ModelCall(
                purpose,
                recorded,
                raw_reply=text or (f"[refusal] {refusal}" if refusal else ""),
                latency_ms=latency,
                prompt_tokens=usage.prompt_tokens if usage else None,
                completion_tokens=usage.completion_tokens if usage else None,
                details=dict(details) if details else None,
            )
        )
        return ChatReply(text=text, refusal=refusal, logprobs=_token_choices(choice))

    def _describe(self, err: openai.APIError) -> str:
        """A short description of a failed request with anything key-like removed."""
        import openai
        if isinstance(err, openai.APITimeoutError):
            return "timeout"
        if isinstance(err, openai.APIConnectionError):
            return "connection error"
        if isinstance(err, openai.APIStatusError):
            text = f"HTTP {err.status_code}: {_error_message(err)}"
        else:
            text = f"{type(err).__name__}: {err}"
        return self._scrub(text)

    def _scrub(self, text: str) -> str:
        return scrub(text, getattr(self._client, "api_key", ""))[:_ERROR_TEXT_LIMIT]


def _ms_since(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _error_message(err: openai.APIStatusError) -> str:
    body = err.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
    return str(err.message)


def _backoff(attempt: int) -> float:
    return min(BACKOFF_CAP_S, BACKOFF_FIRST_S * 2**attempt)


def _retry_wait(err: openai.APIError, attempt: int) -> float | None:
    """Seconds to wait before retrying, or None when retrying cannot help (e.g. 400, 401, 404)."""
    import openai
    backoff = _backoff(attempt)
    if isinstance(err, openai.APIConnectionError):  # includes timeouts
        return backoff
    if not isinstance(err, openai.APIStatusError):
        return None
    status = err.status_code
    if status not in _RETRIED_STATUSES and status < 500:
        return None
    told = retry_after_s(err.response.headers) if status in (429, 503) else None
    return backoff if told is None else told


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """The server's requested wait (retry-after-ms, retry-after seconds or HTTP date), capped; None if absent."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(value) if name == "retry-after" else None
            if parsed is None:
                continue
            seconds = parsed.timestamp() - time.time()
        if math.isfinite(seconds):
            return min(max(seconds, 0.0), RETRY_AFTER_CAP_S)
    return None


def _token_choices(choice) -> tuple[TokenChoice, ...] | None:
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not content:
        return None
    return tuple(
        TokenChoice(
            token=item.token,
            logprob=item.logprob,
            alternatives={alt.token: alt.logprob for alt in (item.top_logprobs or [])} or {item.token: item.logprob},
        )
        for item in content
    )


_KEY_LIKE = re.compile(r"\b(sk-[A-Za-z0-9_\-*]{4,})")


def scrub(text: str, secret: str | None = "") -> str:
    """Remove an API key (and anything shaped like an OpenAI key) from text a server sent back."""
    if secret and secret != PLACEHOLDER_KEY:
        text = text.replace(secret, "***")
    return _KEY_LIKE.sub("sk-***", text)


def image_part(png: bytes) -> dict:
    """An image content part carrying the PNG as a data: URL."""
    encoded = base64.b64encode(png).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}}


def redact_messages(messages: Sequence[dict]) -> list:
    """The messages as sent, with each image replaced by a short description (kind, size, digest)."""
    result = []
    for message in messages:
        message = copy.deepcopy(dict(message))
        content = message.get("content")
        if isinstance(content, list):
            message["content"] = [_describe_part(part) for part in content]
        result.append(message)
    return result


def _describe_part(part: dict) -> dict:
    if part.get("type") != "image_url":
        return part
    url = str(part.get("image_url", {}).get("url", ""))
    match = re.match(r"data:([^;,]+)(;base64)?,(.*)", url, re.DOTALL)
    if not match:
        return {"type": "text", "text": f"[image {url[:80]}]"}
    raw = base64.b64decode(match.group(3)) if match.group(2) else match.group(3).encode()
    digest = hashlib.sha256(raw).hexdigest()[:12]
    return {"type": "text", "text": f"[{match.group(1)} {len(raw)} bytes sha256:{digest}…]"}
