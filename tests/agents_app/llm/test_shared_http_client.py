"""Model calls share one HTTP client per process (agents are built per decision; a client each time built a new
TLS context and dropped its connections), and never follow a redirect; a forked process makes its own."""

from __future__ import annotations

from agents_app.agents.llm import client as client_module
from agents_app.agents.llm.client import make_openai_client, shared_http_client
from agents_app.agents.llm.settings import LLMAgentSettings


def settings(name: str, url: str) -> LLMAgentSettings:
    return LLMAgentSettings(name=name, base_url=url, model="m", api_key_env="")


def test_agents_share_the_processs_http_client_and_it_follows_no_redirect():
    first = make_openai_client(settings("a", "http://127.0.0.1:9/v1"), environ={})
    second = make_openai_client(settings("b", "http://127.0.0.1:10/v1"), environ={})
    assert first._client is second._client is shared_http_client()
    assert shared_http_client().follow_redirects is False


def test_a_forked_process_makes_its_own(monkeypatch):
    mine = shared_http_client()
    monkeypatch.setattr(client_module.os, "getpid", lambda: -1)
    assert shared_http_client() is not mine
