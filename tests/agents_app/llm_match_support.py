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

# The LLM agent lists the moves as "Available actions (id: label):" followed by one "id: label" line each.
_FIRST_ACTION = re.compile(r"Available actions \(id: label\):\n(.+?): ")


def first_listed_action(body) -> ScriptedReply:
    """A model that always plays the first action of the latest list it was shown."""
    texts = []
    for message in body["messages"]:
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        texts += [part["text"] for part in parts if part.get("type") == "text"]
    text = "\n".join(texts)
    found = _FIRST_ACTION.findall(text)
    return ScriptedReply.text({"action": found[-1]} if found else {"explain": "nothing listed"})


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
