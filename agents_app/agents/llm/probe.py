"""Probing an endpoint before it plays: does it enforce a JSON schema, honour JSON mode, return token
log-probabilities, accept images; how long is the model's context, and can the server count tokens?

The platform runs ``probe`` when an agent configuration is checked (and stores ``ProbeReport.capabilities`` on
it, which the agent reads to pick its reply format and fit its prompts), and refuses to start a RAP agent on an
endpoint without log-probabilities (``blocking_problems``) instead of letting every RAP move fall back.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agents_app.agents.base import ModelCall

from .client import ChatCaller, GiveUp, image_part, make_openai_client
from .rap import NO_LOGPROBS_REASON
from .replies import InvalidReply, json_object_in
from .reply_formats import JSON_OBJECT_STYLE, OPENAI_STYLE
from .settings import LLMAgentSettings
from .tokens import server_facts

if TYPE_CHECKING:  # client.py imports openai when a client is built: it takes 0.8 s to import
    import openai

JSON_PROBE_TOKENS = 200


@dataclass(frozen=True)
class ProbeReport:
    endpoint: str  # redacted base URL
    model: str
    json_mode: bool  # the request with response_format json_object was accepted and answered with a JSON object
    json_mode_detail: str
    logprobs: bool  # the reply carried token log-probabilities
    logprobs_detail: str
    images: bool  # a request with an image content part was accepted
    images_detail: str
    latency_ms: int | None  # of the first successful request
    errors: tuple[str, ...] = ()
    json_mode_rejected: bool = False  # the endpoint refused the JSON-mode request itself (not just a bad reply)
    calls: tuple[ModelCall, ...] = ()
    json_schema: bool = False  # a reply under a JSON schema stayed inside it when asked to break it: enforced
    schema_style: str = ""  # how the endpoint took the schema (reply_formats.OPENAI_STYLE or JSON_OBJECT_STYLE)
    json_schema_detail: str = "not probed"
    context_tokens: int | None = None  # the model's context length, where the server reports it
    tokenizer: str = ""  # the server's token-counting endpoint (tokens.TOKENIZERS), "" for none found

    def capabilities(self) -> dict:
        """What the configuration stores (AgentConfig.capabilities) for the agent to read."""
        return {
            "json_schema": self.json_schema,
            "schema_style": self.schema_style,
            "json_mode": self.json_mode,
            "logprobs": self.logprobs,
            "images": self.images,
            "context_tokens": self.context_tokens,
            "tokenizer": self.tokenizer,
        }

    def lines(self) -> list[str]:
        def yes_no(flag: bool) -> str:
            return "yes" if flag else "no"

        context = f"{self.context_tokens} tokens" if self.context_tokens else "not reported"
        lines = [
            f"endpoint {self.endpoint}, model {self.model}",
            f"JSON schema: {yes_no(self.json_schema)} ({self.json_schema_detail})",
            f"JSON mode: {yes_no(self.json_mode)} ({self.json_mode_detail})",
            f"logprobs: {yes_no(self.logprobs)} ({self.logprobs_detail})",
            f"images: {yes_no(self.images)} ({self.images_detail})",
            f"context: {context}; token counting: {self.tokenizer or 'estimated (no tokenize endpoint)'}",
            f"latency: {self.latency_ms} ms" if self.latency_ms is not None else "latency: unknown (no reply)",
        ]
        return lines + [f"error: {error}" for error in self.errors]


def requires_logprobs(settings: LLMAgentSettings) -> bool:
    """RAP reads its rewards from token log-probabilities; the other scaffolds do not need them."""
    return settings.scaffold == "rap"


def blocking_problems(settings: LLMAgentSettings, report: ProbeReport) -> list[str]:
    """Reasons these settings cannot play on the probed endpoint (empty: fine to start)."""
    problems = []
    if requires_logprobs(settings) and not report.logprobs:
        problems.append(NO_LOGPROBS_REASON)
    if settings.json_mode and report.json_mode_rejected:
        problems.append(f"endpoint refuses JSON mode ({report.json_mode_detail}): turn json_mode off")
    if settings.vision and not report.images:
        problems.append(f"endpoint refuses images ({report.images_detail}): turn vision off")
    return problems


def probe(
    settings: LLMAgentSettings, *, environ: Mapping[str, str] | None = None, client: openai.OpenAI | None = None
) -> ProbeReport:
    """Three small real requests against the endpoint; never raises for endpoint problems."""
    client = client if client is not None else make_openai_client(settings, environ)
    caller = ChatCaller(client, settings)
    errors: list[str] = []
    latencies: list[int] = []

    def ask(purpose: str, messages: list[dict], max_tokens: int = 20, **options):
        try:
            reply = caller.call(messages, purpose=purpose, max_tokens=max_tokens, **options)
        except GiveUp as err:
            errors.append(f"{purpose}: {err.reason}")
            return None, err
        latencies.append(caller.calls[-1].latency_ms or 0)
        return reply, None

    reply, failure = ask(
        "probe-json",
        [
            {"role": "system", "content": "You reply in JSON."},
            {"role": "user", "content": 'Reply with the JSON object {"ok": true} and nothing else.'},
        ],
        # Room to finish the object: an endpoint that enforces JSON pads or reasons first on some models, and a
        # reply cut off at 20 tokens read as "JSON mode: no" (issue 22).
        max_tokens=JSON_PROBE_TOKENS,
        json_mode=True,
    )
    # A client error (400 and the like, not 429) means the endpoint refused the request itself.
    status = failure.status if failure is not None else None
    json_mode, json_rejected = False, status is not None and 400 <= status < 500 and status != 429
    if reply is None:
        json_detail = f"request failed: {failure.reason}"
    else:
        try:
            json_object_in(reply.text)
        except InvalidReply as err:
            json_detail = f"accepted, but the reply was not a JSON object: {err.problem}"
        else:
            json_mode, json_detail = True, "accepted and answered with a JSON object"

    reply, failure = ask(
        "probe-logprobs", [{"role": "user", "content": "Is 2 greater than 1? Answer yes or no."}], logprobs=True
    )
    if reply is None:
        logprobs, logprobs_detail = False, f"request failed: {failure.reason}"
    elif reply.logprobs:
        logprobs, logprobs_detail = True, f"{len(reply.logprobs)} token(s) with log-probabilities"
    else:
        logprobs, logprobs_detail = False, "the reply carried no log-probabilities"

    image_request = [
        {
            "role": "user",
            "content": [{"type": "text", "text": "What colour is this picture? One word."}, image_part(tiny_png())],
        },
    ]
    reply, failure = ask("probe-image", image_request)
    images, images_detail = (True, "accepted") if reply is not None else (False, f"request failed: {failure.reason}")

    json_schema, schema_style, schema_detail = False, "", "refused"
    for style in (OPENAI_STYLE, JSON_OBJECT_STYLE):
        reply, failure = ask("probe-schema", SCHEMA_PROBE_MESSAGES, max_tokens=JSON_PROBE_TOKENS,
                             response_format=_schema_format(style))
        if reply is None:
            schema_detail = f"{style}: request failed: {failure.reason}"
            continue
        picked = _picked(reply.text)
        if picked in SCHEMA_PROBE_ENUM:
            json_schema, schema_style = True, style
            schema_detail = f"enforced ({style}: asked for an id outside the schema, got {picked!r})"
            break
        schema_detail = f"{style}: accepted but not enforced (the reply left the schema: {reply.text[:60]!r})"
    server = server_facts(settings)

    return ProbeReport(
        endpoint=settings.display_url,
        model=settings.model,
        json_mode=json_mode,
        json_mode_detail=json_detail,
        logprobs=logprobs,
        logprobs_detail=logprobs_detail,
        images=images,
        images_detail=images_detail,
        latency_ms=latencies[0] if latencies else None,
        errors=tuple(errors),
        json_mode_rejected=json_rejected,
        calls=tuple(caller.calls),
        json_schema=json_schema,
        schema_style=schema_style,
        json_schema_detail=schema_detail,
        context_tokens=server.context_tokens,
        tokenizer=server.tokenizer,
    )


# An id the schema does not admit is asked for: an endpoint that enforces the schema answers inside it anyway.
SCHEMA_PROBE_ENUM = ("alpha", "beta")
SCHEMA_PROBE_MESSAGES = [
    {"role": "system", "content": "You reply in JSON."},
    {"role": "user", "content": 'Reply with the JSON object {"pick": "gamma"} and nothing else.'},
]
_SCHEMA_PROBE = {
    "type": "object",
    "properties": {"pick": {"type": "string", "enum": list(SCHEMA_PROBE_ENUM)}},
    "required": ["pick"],
    "additionalProperties": False,
}


def _schema_format(style: str) -> dict:
    if style == JSON_OBJECT_STYLE:
        return {"type": "json_object", "schema": _SCHEMA_PROBE}
    return {"type": "json_schema", "json_schema": {"name": "probe", "strict": True, "schema": _SCHEMA_PROBE}}


def _picked(text: str) -> object:
    try:
        return json_object_in(text).get("pick")
    except InvalidReply:
        return None


def tiny_png(rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A valid 1x1 PNG of one colour, built by hand so probing needs no imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # width, height, bit depth 8, RGB, no interlace
    pixels = zlib.compress(bytes([0, *rgb]))  # one scanline: filter byte 0, then the pixel
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
