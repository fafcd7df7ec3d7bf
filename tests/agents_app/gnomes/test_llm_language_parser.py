"""Gnomes language, LLM side: settings from the environment, the platform's client, and the few-shot intent parser."""

from __future__ import annotations

import logging
import math
import socket
import time

import pytest

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import RuleBasedParser
from agents_app.agents.gnomes.llm import (
    FEW_SHOT_EXAMPLES,
    SYSTEM_PROMPT,
    LLMParser,
    UnparseableReply,
    flag_from_reply,
    settings_from_env,
)
from agents_app.agents.llm.client import PLACEHOLDER_KEY, make_openai_client
from agents_app.agents.llm.settings import LLMAgentSettings
from tests.agents_app.gnomes.intent_set_support import load_intent_set
from tests.agents_app.gnomes.llm_support import Sleeps, caller_for, settings_for
from tests.support.openai_server import ScriptedReply, scripted_openai_server

SECRET = "sk-test-very-secret-0123456789"


def llm_parser(server, **overrides) -> LLMParser:
    return LLMParser(caller_for(settings_for(server, **overrides)))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- Settings and client: the platform's own ------------------------------------------------------------------


def test_settings_from_env_needs_an_endpoint():
    assert settings_from_env({}) is None
    assert settings_from_env({"GNOMES_LLM_MODEL": "x", "OPENAI_API_KEY": SECRET}) is None


def test_settings_from_env_reads_gnomes_variables_with_defaults():
    settings = settings_from_env({"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert isinstance(settings, LLMAgentSettings)  # the settings every other model call uses
    assert (settings.base_url, settings.model, settings.api_key_env) == ("http://127.0.0.1:9/v1", "gpt-3.5-turbo", "")
    assert (settings.timeout_s, settings.http_retries, settings.temperature) == (10.0, 1, 0.0)
    # The usual key variable is used when it is set; GNOMES_LLM_API_KEY_ENV names another one.
    with_key = settings_from_env({"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": SECRET})
    assert with_key.api_key_env == "OPENAI_API_KEY" and SECRET not in repr(with_key)
    settings = settings_from_env(
        {
            "GNOMES_LLM_BASE_URL": "http://localhost:8000/v1",
            "OPENAI_BASE_URL": "http://elsewhere/v1",
            "GNOMES_LLM_MODEL": "local-model",
            "GNOMES_LLM_API_KEY_ENV": "MY_KEY",
        }
    )
    assert (settings.base_url, settings.model, settings.api_key_env) == (
        "http://localhost:8000/v1",
        "local-model",
        "MY_KEY",
    )


def test_settings_repr_hides_credentials_in_the_url():
    url = f"https://user:{SECRET}@llm.example:8443/v1?key={SECRET}"
    settings = settings_from_env({"GNOMES_LLM_BASE_URL": url})
    assert SECRET not in repr(settings)
    assert "llm.example:8443/v1" in repr(settings)
    assert SECRET not in settings.display_url


def test_key_from_a_custom_variable_is_sent_but_never_shown_or_recorded(caplog):
    environ = {"GNOMES_LLM_API_KEY_ENV": "MY_GNOMES_KEY", "MY_GNOMES_KEY": SECRET}
    caplog.set_level(logging.DEBUG)  # everything any library logs, openai and httpx included
    with scripted_openai_server(["UP", "not a flag", ScriptedReply.error(500)]) as server:
        environ["GNOMES_LLM_BASE_URL"] = server.base_url
        settings = settings_from_env(environ)
        parser = LLMParser(caller_for(settings, environ))
        flags = [parser.parse("go up"), parser.parse("go up"), parser.parse("go up")]
    assert flags == [Flag.UP] * 3
    # Four requests: the settings keep one HTTP retry, which the 500 used (and found the script empty).
    assert [r.headers["authorization"] for r in server.requests] == [f"Bearer {SECRET}"] * 4
    assert SECRET not in repr(settings) and SECRET not in str(settings)
    assert SECRET not in repr(parser.caller.calls)
    assert SECRET not in caplog.text
    assert "using the rule-based parser" in caplog.text  # the failures were logged, without the key


def test_missing_key_uses_a_placeholder():
    with scripted_openai_server(["NONE"]) as server:
        settings = settings_for(server, api_key_env="NO_SUCH_API_KEY")
        LLMParser(caller_for(settings)).parse("hello")
    assert server.requests[0].headers["authorization"] == f"Bearer {PLACEHOLDER_KEY}"


def test_the_client_is_the_platforms_with_retries_done_by_the_caller():
    settings = settings_from_env({"GNOMES_LLM_BASE_URL": "http://127.0.0.1:9/v1"})
    client = make_openai_client(settings, environ={})
    assert client.max_retries == 0  # ChatCaller retries, so that every attempt is recorded
    assert client.timeout == settings.timeout_s == 10.0


# --- LLM intent parser ---------------------------------------------------------------------------------------


def test_scripted_flag_is_returned_the_prompt_is_few_shot_and_the_call_recorded():
    with scripted_openai_server(["RIGHT"]) as server:
        parser = llm_parser(server)
        assert parser.parse("would u mind moving it one to the east") is Flag.RIGHT
        assert parser.last_used_fallback is False
    (request,) = server.requests
    assert request.method == "POST" and request.path == "/v1/chat/completions"
    assert request.body["model"] == "gpt-3.5-turbo"
    assert request.body["temperature"] == 0.0 and request.body["max_tokens"] == 8
    assert "response_format" not in request.body
    messages = request.messages
    assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert "one flag word" in SYSTEM_PROMPT
    for flag in Flag:
        assert flag.value in SYSTEM_PROMPT
    # Every example is an earlier user turn followed by the assistant's flag.
    for text, flag in FEW_SHOT_EXAMPLES:
        index = next(i for i, m in enumerate(messages) if m["role"] == "user" and text in m["content"])
        assert messages[index + 1] == {"role": "assistant", "content": flag.value}
    assert messages[-1]["role"] == "user"
    assert "would u mind moving it one to the east" in messages[-1]["content"]
    (call,) = parser.caller.calls
    assert (call.purpose, call.raw_reply, call.parsed_action, call.error) == ("intent", "RIGHT", "RIGHT", "")
    assert call.request_messages == messages and call.prompt_tokens > 0 and call.latency_ms is not None


def test_few_shot_examples_are_separate_from_the_evaluation_set():
    assert 12 <= len(FEW_SHOT_EXAMPLES) <= 20
    _, examples = load_intent_set()
    evaluation = {text.strip().lower() for text, _ in examples}
    assert not [text for text, _ in FEW_SHOT_EXAMPLES if text.strip().lower() in evaluation]


@pytest.mark.parametrize(
    ("reply", "flag"),
    [("RIGHT", Flag.RIGHT), ("inquiry", Flag.INQUIRY), ("Flag: Accept.", Flag.ACCEPT), ("  none\n", Flag.NONE)],
)
def test_replies_are_read_case_insensitively(reply, flag):
    assert flag_from_reply(reply) is flag


@pytest.mark.parametrize("reply", ["", None, "I am not sure", "RIGHTWARDS", "go-go"])
def test_replies_without_a_flag_are_failures(reply):
    with pytest.raises(UnparseableReply):
        flag_from_reply(reply)


def test_garbage_reply_falls_back_to_the_rules(caplog):
    with scripted_openai_server(["I'd say the partner is feeling adventurous!"]) as server:
        parser = llm_parser(server)
        assert parser.parse("dont go left, go up") is Flag.UP
        assert parser.last_used_fallback is True
    assert len(server.requests) == 1
    assert "LLM intent parsing failed" in caplog.text
    (call,) = parser.caller.calls
    assert call.error.startswith("invalid reply: no flag") and call.parsed_action == ""


def test_http_500_falls_back():
    with scripted_openai_server([ScriptedReply.error(500, "boom")]) as server:
        parser = llm_parser(server)
        assert parser.parse("where is the treasure?") is Flag.INQUIRY
        assert parser.last_used_fallback is True
    (call,) = parser.caller.calls
    assert call.error == "HTTP 500: boom" and call.raw_reply == ""


def test_a_reply_slower_than_the_timeout_falls_back():
    with scripted_openai_server([ScriptedReply.text("LEFT", delay=3.0)]) as server:
        parser = llm_parser(server, timeout_s=0.3)
        started = time.monotonic()
        assert parser.parse("go down twice then left") is Flag.DOWN
        assert time.monotonic() - started < 2.5
        assert parser.last_used_fallback is True
    assert [c.error for c in parser.caller.calls] == ["timeout"]


def test_an_unreachable_endpoint_falls_back():
    settings = LLMAgentSettings(
        name="gnomes-language",
        base_url=f"http://127.0.0.1:{closed_port()}/v1",
        model="m",
        api_key_env="",
        timeout_s=2.0,
        http_retries=0,
    )
    parser = LLMParser(caller_for(settings))
    assert parser.parse("nope") is Flag.REJECT
    assert parser.last_used_fallback is True


def test_a_rate_limit_is_retried_after_the_servers_wait_when_settings_allow():
    script = [ScriptedReply.error(429, "slow down", headers={"Retry-After": "2"}), "DOWN"]
    with scripted_openai_server(script) as server:
        sleeps = Sleeps()
        parser = LLMParser(caller_for(settings_for(server, http_retries=1), sleep=sleeps))
        assert parser.parse("go south") is Flag.DOWN
        assert parser.last_used_fallback is False
    assert len(server.requests) == 2
    assert sleeps == [2.0]  # the platform's retry policy: Retry-After honoured (and never really waited here)
    assert [c.error for c in parser.caller.calls] == ["HTTP 429: slow down", ""]


def test_the_fallback_can_be_any_parser():
    class AlwaysStay:
        def parse(self, message: str) -> Flag:
            return Flag.STAY

    with scripted_openai_server(["???"]) as server:
        parser = LLMParser(caller_for(settings_for(server)), fallback=AlwaysStay())
        assert parser.parse("go right") is Flag.STAY


def test_empty_messages_are_none_without_a_call():
    with scripted_openai_server([]) as server:
        parser = llm_parser(server)
        assert parser.parse("   ") is Flag.NONE
        assert parser.last_used_fallback is False
    assert server.requests == [] and parser.caller.calls == []


def test_a_fallback_flag_resets_on_the_next_success():
    with scripted_openai_server([ScriptedReply.error(503), "ACCEPT"]) as server:
        parser = llm_parser(server)
        parser.parse("ok")
        assert parser.last_used_fallback is True
        assert parser.parse("ok") is Flag.ACCEPT
        assert parser.last_used_fallback is False


def test_llm_parser_agrees_with_a_perfect_model_on_the_set():
    """A server that answers the true label: the parser's plumbing loses nothing across the whole set."""
    _, examples = load_intent_set()
    labels = {text: flag.value for text, flag in examples}

    def oracle(body):
        content = body["messages"][-1]["content"]
        text = next(t for t in labels if content == f"Partner's message: {t!r}")
        return labels[text]

    with scripted_openai_server(oracle) as server:
        parser = LLMParser(caller_for(settings_for(server), budget_s=math.inf))  # a set, not one decision
        flags = [parser.parse(text) for text, _ in examples]
    assert flags == [flag for _, flag in examples]
    # Blank messages never reach the model.
    assert len(server.requests) == sum(1 for text, _ in examples if text.strip())
    assert len(parser.caller.calls) == len(server.requests)


def test_rules_are_the_default_fallback():
    assert isinstance(LLMParser(None)._fallback, RuleBasedParser)  # type: ignore[arg-type]
