"""Shared pieces of the LLM-seat tests: a scripted model that plays the first listed move, and configs for it."""

from __future__ import annotations

import re

import pytest

from agents_app.models import AgentCall, AgentConfig
from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.support.openai_server import ScriptedReply

# The LLM agent lists the moves as "Available actions (id: label):" followed by one "id: label" line each, or, choosing
# a move part by part (agents_app.agents.llm.composing), as "Available actions:" followed by one part per line.
_FIRST_ACTION = re.compile(r"Available actions \(id: label\):\n(.+?): |Available actions:\n(.+)")
# And its open-ended actions as "Open-ended actions (reply with the id and your text):" then "id: label; format: ..."
# lines, or a part alone before its "; format: ...".
_FIRST_TEXT_ACTION = re.compile(
    r"Open-ended actions \(reply with the id and your text\):\n(.+?)(?:; format: |; at most \d+ characters)")
MOVE_TEXT = "Let us find a deal that suits us both."


def first_listed_action(body) -> ScriptedReply:
    """A model that always plays the first action of the latest list it was shown."""
    found = _listed_first(_prompt(body))
    return ScriptedReply.text({"action": found} if found else {"explain": "nothing listed"})


def _listed_first(prompt: str) -> str | None:
    """The first action of the latest list of structured actions in the prompt."""
    found = _FIRST_ACTION.findall(prompt)
    return (found[-1][0] or found[-1][1]) if found else None


def _text_listed_first(prompt: str) -> str | None:
    """The id of the first open-ended action of the latest such list: before its label, if it has one."""
    found = _FIRST_TEXT_ACTION.findall(prompt)
    return found[-1].split(": ")[0] if found else None


def is_move_request(body) -> bool:
    """Whether a request asks for a move (the probe's small requests do not list actions)."""
    return "Available actions" in _prompt(body)


def legal_reply(body, *, delay: float = 0.0) -> ScriptedReply:
    """A model that always answers a legal id: the first of the schema's enum when the request carries one (the
    agent's "schema" reply format), else the first listed move or open-ended action of the prompt; an open-ended
    action comes with a plain sentence as its text. ``delay`` seconds pass before it answers."""
    schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
    properties = schema.get("properties", {})
    text = _prompt(body)
    if properties.get("action", {}).get("enum"):
        # A strict schema requires every property: the text where there is one, an empty chat line.
        reply = {name: "" for name in properties}
        reply["action"] = properties["action"]["enum"][0]
        if "text" in properties:
            reply["text"] = MOVE_TEXT
    elif move := _listed_first(text):
        reply = {"action": move}
    elif open_ended := _text_listed_first(text):
        reply = {"action": open_ended, "text": MOVE_TEXT}
    else:
        reply = {"explain": "nothing listed"}
    return ScriptedReply.text(reply, delay=delay)


def _prompt(body) -> str:
    texts = []
    for message in body["messages"]:
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        texts += [part["text"] for part in parts if part.get("type") == "text"]
    return "\n".join(texts)


def llm_config(name: str, base_url: str, **fields) -> AgentConfig:
    # One correction and no HTTP retries keep a garbage-answering model's fallbacks quick.
    values = {"model": "scripted-model", "api_key_env": "", "retries": 1, "http_retries": 0, "timeout_s": 10}
    config = AgentConfig(name=name, base_url=base_url, **{**values, **fields})
    config.full_clean()
    config.save()
    return config


def play_llm_vs_random(name: str, seed: int = 7) -> Match:
    """An LLM seat (0) against the random agent, played to the end by eager Celery."""
    match = services.create_match(
        "santorini",
        [SeatController("agent", agent_name=name), SeatController("agent", agent_name="random")],
        seed=seed,
        host_seat=None,
    )
    match.refresh_from_db()
    return match


def calls_of(match: Match) -> list[AgentCall]:
    return list(AgentCall.objects.filter(match=match).select_related("event").order_by("version", "seq"))


@pytest.fixture
def eager_celery():
    """Agent turns run in-process (with REDIS_URL set, settings would queue them for a worker)."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous
