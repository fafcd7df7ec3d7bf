"""How a move is asked for: a JSON schema that admits only the legal action ids, JSON mode, or free text.

A small model rarely writes a JSON object with a legal id on its own (SmolLM2-135M: 1 valid of 177 Santorini
decisions, issue 21); servers people run (llama.cpp, vLLM, Ollama) and OpenAI itself can constrain the reply to
a schema, so the agent asks for the most constrained format the endpoint supports (the probe finds out,
``LLMAgentSettings.capabilities``) and steps down when the endpoint refuses one: schema, then JSON mode, then free
text parsed as before. Every call records the format it asked for (``ModelCall.details["reply_format"]``).

The schema is strict (every property required, nothing else allowed) so OpenAI's strict mode accepts it: a chat
line and the text of an open-ended action are then required strings, left empty when unused.
"""

from __future__ import annotations

from agents_app.agents.base import TurnView

from .prompts import MAX_MESSAGE_CHARS
from .settings import LLMAgentSettings

SCHEMA, JSON, TEXT = "schema", "json", "text"
ORDER = (SCHEMA, JSON, TEXT)
# How an endpoint takes a schema: OpenAI's response_format (vLLM, Ollama, llama.cpp's server and OpenAI itself), or
# llama-cpp-python's JSON mode with a "schema" beside it.
OPENAI_STYLE, JSON_OBJECT_STYLE = "json_schema", "json_object_schema"


def first_format(settings: LLMAgentSettings) -> str:
    """The format a decision starts with: as configured, or (auto) the most constrained the probe found."""
    if settings.reply_format != "auto":
        return settings.reply_format
    found = settings.capabilities
    if found.get("json_schema"):
        return SCHEMA
    if settings.json_mode and found.get("json_mode", True):
        return JSON
    return TEXT


def step_down(current: str) -> str | None:
    """The next less constrained format after the endpoint refused ``current`` (None after free text)."""
    index = ORDER.index(current)
    return ORDER[index + 1] if index + 1 < len(ORDER) else None


def move_schema(view: TurnView) -> dict:
    """The JSON schema of a move: "action" is one of exactly the legal ids (structured and open-ended)."""
    ids = [a.id for a in view.legal_actions] + [t.id for t in view.text_actions]
    properties: dict = {"action": {"type": "string", "enum": ids}}
    if view.text_actions:
        longest = max(t.max_length for t in view.text_actions)
        properties["text"] = {"type": "string", "maxLength": longest}
    if view.chat:
        properties["message"] = {"type": "string", "maxLength": MAX_MESSAGE_CHARS}
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def response_format(fmt: str, view: TurnView, settings: LLMAgentSettings) -> dict | None:
    """The request's ``response_format`` for a move in format ``fmt`` (None: free text)."""
    if fmt == SCHEMA:
        schema = move_schema(view)
        if settings.capabilities.get("schema_style") == JSON_OBJECT_STYLE:
            return {"type": "json_object", "schema": schema}
        return {"type": "json_schema", "json_schema": {"name": "move", "strict": True, "schema": schema}}
    if fmt == JSON:
        return {"type": "json_object"}
    return None


def refused_format(status: int | None) -> bool:
    """Whether a failed request may be the endpoint refusing its reply format: a bad or unprocessable request (an
    unknown model, a missing key or a rate limit is not, and stepping down would not help)."""
    return status in (400, 422)
