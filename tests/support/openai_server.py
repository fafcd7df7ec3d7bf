"""A real local HTTP server that speaks OpenAI chat completions, with scripted replies, for LLM tests.

Tests drive it through the official ``openai`` client, so the whole path (URL joining, headers, JSON,
retries, timeouts, error mapping) is exercised exactly as in production; only the model is replaced.

    with scripted_openai_server(["RIGHT", ScriptedReply.error(500)]) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0)
        ...
        assert server.requests[0].body["model"] == "gpt-3.5-turbo"
        assert server.requests[0].seed is None  # OpenAI's ``seed`` parameter, when a request sends one

A script is a sequence of replies served in order (a plain string means a text reply; when the script runs out,
the server answers 500 so the test sees it), or a callable ``(request_body) -> ScriptedReply | str``.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token and its log-probability, with the alternatives the model considered."""

    token: str
    logprob: float = 0.0
    top_logprobs: Sequence[tuple[str, float]] = ()


@dataclass(frozen=True)
class ScriptedReply:
    """What the server answers to one request.

    ``content`` (a string, or a dict/list that is sent as JSON text) makes a normal completion; ``status`` other
    than 200 makes an error response with ``body`` (default: an OpenAI-style error object) and ``headers``.
    ``delay`` seconds pass before anything is sent, to exercise client timeouts.
    """

    content: str | dict | list | None = None
    status: int = 200
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    logprobs: Sequence[TokenLogprob] | None = None
    finish_reason: str = "stop"

    @classmethod
    def text(
        cls, content: str | dict | list, *, delay: float = 0.0, logprobs: Sequence[TokenLogprob] | None = None
    ) -> ScriptedReply:
        return cls(content=content, delay=delay, logprobs=logprobs)

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "scripted error",
        *,
        headers: Mapping[str, str] | None = None,
        body: Any = None,
        delay: float = 0.0,
    ) -> ScriptedReply:
        if body is None:
            body = {"error": {"message": message, "type": "scripted_error", "param": None, "code": str(status)}}
        return cls(status=status, body=body, headers=dict(headers or {}), delay=delay)


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it; header names are lower-cased."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any

    @property
    def messages(self) -> list[dict]:
        return list(self.body.get("messages", [])) if isinstance(self.body, dict) else []

    @property
    def seed(self) -> int | None:
        """The request's OpenAI ``seed`` parameter (None when it carried none): what a sampling seed asked for."""
        value = self.body.get("seed") if isinstance(self.body, dict) else None
        return value if isinstance(value, int) else None

    @property
    def prompt_text(self) -> str:
        """All text of all messages, joined by newlines (list-form content contributes its text parts)."""
        return "\n".join(text for message in self.messages for text in _texts(message.get("content")))

    @property
    def image_urls(self) -> list[str]:
        urls = []
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, list):
                urls += [part["image_url"]["url"] for part in content if part.get("type") == "image_url"]
        return urls


Script = Sequence[ScriptedReply | str] | Callable[[Any], ScriptedReply | str]


class ScriptedOpenAIServer:
    """The running server: ``base_url`` ends in ``/v1``; ``requests`` lists what arrived, oldest first."""

    def __init__(self, script: Script, *, context_tokens: int | None = None, tokenizer: str = ""):
        """``context_tokens``: answer llama.cpp's ``GET /props`` with that context length; ``tokenizer``:
        ``"llama-cpp-python"`` or ``"llama.cpp"`` answers that server's token-counting endpoint (a token per 4
        characters, rounded up). Requests to those endpoints, and to any other path but the chat ones, are kept in
        ``side_requests``, not ``requests``."""
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._requests: list[RecordedRequest] = []
        self._side_requests: list[RecordedRequest] = []
        self.context_tokens = context_tokens
        self.tokenizer = tokenizer
        self._ids = itertools.count(1)
        if callable(script):
            self._responder: Callable[[Any], ScriptedReply | str] | None = script
            self._queue: deque[ScriptedReply | str] = deque()
        else:
            self._responder = None
            self._queue = deque(script)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        # A short poll interval so stop() returns promptly (the default is half a second per server).
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="scripted-openai", daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def side_requests(self) -> list[RecordedRequest]:
        """Requests to other paths than the chat ones (the server facts a probe asks for, token counts)."""
        with self._lock:
            return list(self._side_requests)

    def enqueue(self, *replies: ScriptedReply | str) -> None:
        """Append replies to a sequence script (e.g. between phases of one test)."""
        with self._lock:
            self._queue.extend(replies)

    def start(self) -> ScriptedOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping in a scripted delay
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # --- used by the handler ---

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            chat = request.method == "POST" and request.path.split("?", 1)[0] in CHAT_PATHS
            (self._requests if chat else self._side_requests).append(request)

    def side_reply(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        """The answer to a request outside the chat API (404 unless the server was asked to play that part)."""
        if method == "GET" and path == "/props" and self.context_tokens:
            return 200, {"default_generation_settings": {"n_ctx": self.context_tokens}}
        field = "input" if self.tokenizer == "llama-cpp-python" else "content"
        text = body.get(field) if isinstance(body, dict) else None
        if isinstance(text, str):
            count = math.ceil(len(text) / 4)
            if self.tokenizer == "llama-cpp-python" and path == "/extras/tokenize/count":
                return 200, {"count": count}
            if self.tokenizer == "llama.cpp" and path == "/tokenize":
                return 200, {"tokens": list(range(count))}
        return 404, _error_body(f"no route for {method} {path}")

    def _next_reply(self, body: Any) -> ScriptedReply:
        if self._responder is not None:
            reply = self._responder(body)
        else:
            with self._lock:
                reply = self._queue.popleft() if self._queue else ScriptedReply.error(500, "script exhausted")
        return ScriptedReply.text(reply) if isinstance(reply, str) else reply

    def _sleep(self, seconds: float) -> None:
        self._stopping.wait(seconds)

    def _completion_id(self) -> str:
        return f"chatcmpl-scripted-{next(self._ids)}"


@contextmanager
def scripted_openai_server(script: Script, **features: Any) -> Iterator[ScriptedOpenAIServer]:
    """Run a scripted server for the duration of the block (usable directly or inside a pytest fixture);
    ``features`` as ScriptedOpenAIServer takes them."""
    server = ScriptedOpenAIServer(script, **features).start()
    try:
        yield server
    finally:
        server.stop()


# --- Protocol details ----------------------------------------------------------------------------------------


def _texts(content: Any) -> Iterable[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                yield str(part.get("text", ""))


def _invalid_request(body: Any) -> str | None:
    """Why a chat request body is malformed (like the real API would refuse it), or None if it is fine."""
    if not isinstance(body, dict):
        return "the body must be a JSON object"
    if not isinstance(body.get("model"), str):
        return "'model' is required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "'messages' must be a non-empty list"
    for message in messages:
        if not isinstance(message, dict) or "role" not in message:
            return "each message needs a 'role'"
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                kind = part.get("type") if isinstance(part, dict) else None
                if kind == "image_url" and not isinstance(part.get("image_url", {}).get("url"), str):
                    return "an image_url part needs image_url.url"
                if kind not in {"text", "image_url"}:
                    return f"unsupported content part type {kind!r}"
        elif content is not None and not isinstance(content, str):
            return "message content must be a string or a list of parts"
    return None


def _count_tokens(text: str) -> int:
    # An approximation (words and punctuation marks); tests only need plausible, deterministic numbers.
    return len(re.findall(r"\w+|[^\w\s]", text))


def _split_tokens(text: str) -> list[str]:
    """Tokens for default logprobs: each word with its leading whitespace, so they join back to ``text``."""
    return re.findall(r"\s*\S+|\s+$", text) or [text]


def _logprobs_payload(reply: ScriptedReply, text: str, top_n: int) -> dict:
    tokens = list(reply.logprobs) if reply.logprobs is not None else [TokenLogprob(t) for t in _split_tokens(text)]
    content = []
    for token in tokens:
        alternatives = list(token.top_logprobs) or [(token.token, token.logprob)]
        content.append(
            {
                "token": token.token,
                "logprob": token.logprob,
                "bytes": list(token.token.encode()),
                "top_logprobs": [
                    {"token": alt, "logprob": lp, "bytes": list(alt.encode())} for alt, lp in alternatives[:top_n]
                ],
            }
        )
    return {"content": content, "refusal": None}


def _completion(completion_id: str, body: dict, reply: ScriptedReply) -> dict:
    content = reply.content
    # A dict or list reply is what a JSON-mode (response_format json_object) model would emit: send it as text.
    text = json.dumps(content) if isinstance(content, dict | list) else (content or "")
    prompt = "\n".join(part for message in body["messages"] for part in _texts(message.get("content")))
    choice: dict[str, Any] = {
        "index": 0,
        "message": {"role": "assistant", "content": text, "refusal": None},
        "finish_reason": reply.finish_reason,
        "logprobs": None,
    }
    if body.get("logprobs"):
        choice["logprobs"] = _logprobs_payload(reply, text, int(body.get("top_logprobs") or 0))
    prompt_tokens, completion_tokens = _count_tokens(prompt), _count_tokens(text)
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body["model"],
        "choices": [choice],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
        "system_fingerprint": "scripted",
    }


def _handler_for(server: ScriptedOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the openai client (httpx) expects
        # Headers and body leave in two writes; with Nagle on, delayed ACKs add ~40 ms to every request.
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
                parse_error = "the body is not valid JSON"
            else:
                parse_error = None
            headers = {name.lower(): value for name, value in self.headers.items()}
            server._record(RecordedRequest("POST", self.path, headers, body))
            path = self.path.split("?", 1)[0]
            if path not in CHAT_PATHS:
                self._send(*server.side_reply("POST", path, body))
                return
            problem = parse_error or _invalid_request(body)
            if problem:
                self._send(400, _error_body(problem))
                return
            reply = server._next_reply(body)
            if reply.delay:
                server._sleep(reply.delay)
            if reply.status != 200:
                self._send(reply.status, reply.body, reply.headers)
            else:
                self._send(200, _completion(server._completion_id(), body, reply), reply.headers)

        def do_GET(self) -> None:
            server._record(RecordedRequest("GET", self.path, {k.lower(): v for k, v in self.headers.items()}, None))
            self._send(*server.side_reply("GET", self.path.split("?", 1)[0], None))

        def _send(self, status: int, body: Any, headers: Mapping[str, str] | None = None) -> None:
            # A str or bytes body goes out as is (e.g. a proxy's HTML error page); anything else as JSON.
            raw = isinstance(body, str | bytes)
            payload = (body.encode() if isinstance(body, str) else body) if raw else json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "text/plain" if raw else "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing is listening any more

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean; assertions use server.requests instead

    return Handler


def _error_body(message: str) -> dict:
    return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}
