"""Shared helpers of the Gnomes language module's LLM tests: the settings of a scripted local server, and a ChatCaller
on them whose retry waits are recorded, not waited.

The Gnomes module reaches the model through the platform's one client stack (agents_app/agents/llm/client.py:
LLMAgentSettings, make_openai_client, ChatCaller and its retry policy), so every request is a recorded ModelCall.
"""

from __future__ import annotations

from agents_app.agents.llm.client import ChatCaller, make_openai_client
from agents_app.agents.llm.settings import LLMAgentSettings


class Sleeps(list):
    """A sleep that records how long it was asked to wait, and does not wait."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def settings_for(server, **overrides) -> LLMAgentSettings:
    values = {
        "name": "gnomes-language",
        "base_url": server.base_url,
        "model": "gpt-3.5-turbo",
        "api_key_env": "",
        "timeout_s": 5.0,
        "http_retries": 0,
        "json_mode": False,
    }
    values.update(overrides)
    return LLMAgentSettings(**values)


def caller_for(settings: LLMAgentSettings, environ=None, **kwargs) -> ChatCaller:
    kwargs.setdefault("sleep", Sleeps())
    return ChatCaller(make_openai_client(settings, {} if environ is None else environ), settings, **kwargs)
