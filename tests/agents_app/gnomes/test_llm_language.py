"""The LLM side of the Gnomes language module, through a real local server and the official openai client.

Covers llm.py (settings from the environment, the few-shot parser with its fallback), messages.py (templates and
LLM inquiry answers) and the scripted server in tests/support/openai_server.py that later LLM-agent tests reuse.
The Gnomes module reaches the model through the platform's one client stack (agents_app/agents/llm/client.py:
LLMAgentSettings, make_openai_client, ChatCaller and its retry policy), so every request is a recorded ModelCall.
"""

from __future__ import annotations

import json
import logging
import math
import re
import socket
import time

import openai
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
from agents_app.agents.gnomes.messages import (
    INQUIRY_SYSTEM_PROMPT,
    MAX_ANSWER_CHARS,
    InquiryFacts,
    answer_inquiry,
    cannot,
    suggest,
    template_answer,
)
from agents_app.agents.llm.client import PLACEHOLDER_KEY, ChatCaller, make_openai_client
from agents_app.agents.llm.settings import LLMAgentSettings
from tests.agents_app.gnomes.intent_set_support import load_intent_set
from tests.support.openai_server import ScriptedReply, TokenLogprob, scripted_openai_server

SECRET = "sk-test-very-secret-0123456789"


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


def llm_parser(server, **overrides) -> LLMParser:
    return LLMParser(caller_for(settings_for(server, **overrides)))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


FACTS = InquiryFacts(
    token=(2, 3),
    open_moves=("stay", "right", "down"),
    blocked_moves=("up", "left"),
    treasure=None,
    suggestion="right",
    turn=7,
    turn_cap=40,
)


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


# --- Outgoing messages ---------------------------------------------------------------------------------------


def test_suggest_and_cannot_templates():
    assert suggest(Flag.RIGHT) == "Can you move right?"
    assert suggest(Flag.UP) == "Can you move up?"
    assert suggest(Flag.STAY) == "Can you stay put this turn?"
    assert cannot("left") == "I cannot move left because there is a wall in that direction."
    with pytest.raises(ValueError):
        suggest(Flag.ACCEPT)
    with pytest.raises(ValueError):
        cannot("stay")


def test_template_answers_about_the_treasure():
    hidden = template_answer("where is the treasure?", FACTS)
    assert hidden == "I can't see the treasure — it must be on your side. Which way should we go?"
    visible = InquiryFacts((2, 3), ("right",), (), treasure=(5, 1), suggestion=None, turn=1, turn_cap=40)
    # 0-based (5, 1) is column 6, row 2 for people; from (2, 3) that is 3 right and 2 up.
    assert template_answer("can you see the gem?", visible) == (
        "The treasure is on my side at column 6, row 2 — from the token that is 3 right and 2 up."
    )
    below = InquiryFacts((4, 0), (), (), treasure=(4, 8), suggestion=None, turn=1, turn_cap=40)
    assert template_answer("where's the treasure", below).endswith("from the token that is 8 down.")


def test_template_answers_about_moves_turns_and_suggestions():
    assert template_answer("which way should I go?", FACTS) == (
        "From here I can move right or down on my side. Walls block up and left. Can you move right?"
    )
    stuck = InquiryFacts((0, 0), ("stay",), ("up", "left"), None, suggestion="stay", turn=3, turn_cap=40)
    assert template_answer("what walls do you have?", stuck) == (
        "From here every direction is walled off on my side. Walls block up and left. Can you stay put this turn?"
    )
    assert template_answer("how many turns do we have left?", FACTS) == "We are on turn 7 of 40."


def test_answer_without_a_caller_is_the_template():
    assert answer_inquiry("where is the treasure?", FACTS) == template_answer("where is the treasure?", FACTS)


def test_llm_answer_gets_only_the_facts_and_no_treasure_position_when_hidden():
    with scripted_openai_server(["  I can't see the treasure from my side.\n Could you try moving right?  "]) as server:
        caller = caller_for(settings_for(server))
        answer = answer_inquiry("where is the treasure?", FACTS, caller)
    assert answer == "I can't see the treasure from my side. Could you try moving right?"
    (call,) = caller.calls
    assert call.purpose == "inquiry" and call.error == "" and "treasure" in call.raw_reply
    (request,) = server.requests
    system, user = request.messages
    assert system == {"role": "system", "content": INQUIRY_SYSTEM_PROMPT}
    assert "never state or guess a position of the treasure" in INQUIRY_SYSTEM_PROMPT.lower()
    prompt = user["content"]
    assert "where is the treasure?" in prompt
    assert "column 3, row 4" in prompt  # the token, 1-based
    assert "open on my side from the token: right, down" in prompt
    assert "blocked by walls on my side: up, left" in prompt
    assert "move the token right next" in prompt and "turn 7 of at most 40" in prompt
    assert "cannot see the treasure" in prompt
    # The only position anywhere in the request is the token's.
    assert re.findall(r"column \d+, row \d+", request.prompt_text) == ["column 3, row 4"]
    assert not re.search(r"\(\s*\d+\s*,\s*\d+\s*\)", request.prompt_text)


def test_llm_answer_is_told_a_visible_treasure():
    visible = InquiryFacts((2, 3), ("right",), ("up",), treasure=(5, 1), suggestion=None, turn=2, turn_cap=40)
    with scripted_openai_server(["It is 3 right and 2 up from us."]) as server:
        answer_inquiry("where's the gem?", visible, caller_for(settings_for(server)))
    prompt = server.requests[0].prompt_text
    assert "treasure is on my side at column 6, row 2 (3 right and 2 up from the token)" in prompt


def test_llm_answer_is_cut_to_300_characters():
    with scripted_openai_server(["word " * 200]) as server:
        answer = answer_inquiry("what can you see?", FACTS, caller_for(settings_for(server)))
    assert len(answer) <= MAX_ANSWER_CHARS
    assert answer.endswith("…") and answer.startswith("word word")


@pytest.mark.parametrize(
    "reply", [ScriptedReply.error(500), ScriptedReply.text("   "), ScriptedReply.text("late", delay=3.0)]
)
def test_llm_answer_failures_use_the_template(reply, caplog):
    with scripted_openai_server([reply]) as server:
        caller = caller_for(settings_for(server, timeout_s=0.3))
        answer = answer_inquiry("where is the treasure?", FACTS, caller)
    assert answer == template_answer("where is the treasure?", FACTS)
    assert "LLM inquiry answer failed" in caplog.text
    assert len(caller.calls) == 1 and caller.calls[0].error  # the failed request is recorded too


# --- The scripted server itself ------------------------------------------------------------------------------


def plain_client(server) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=5)


def test_server_reports_usage_and_accepts_both_paths():
    with scripted_openai_server(["hello there", "again"]) as server:
        completion = plain_client(server).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "say hi"}]
        )
        bare = openai.OpenAI(base_url=server.base_url.removesuffix("/v1"), api_key="k", max_retries=0)
        bare.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert completion.choices[0].message.content == "hello there"
    assert completion.usage.prompt_tokens > 0 and completion.usage.completion_tokens == 2
    assert completion.usage.total_tokens == completion.usage.prompt_tokens + 2
    assert [r.path for r in server.requests] == ["/v1/chat/completions", "/chat/completions"]


def test_server_logprobs_default_and_scripted():
    scripted = [TokenLogprob("UP", -0.1, (("UP", -0.1), ("DOWN", -2.5), ("LEFT", -4.0)))]
    with scripted_openai_server(["go right now", ScriptedReply.text("UP", logprobs=scripted), "plain"]) as server:
        client = plain_client(server)
        ask = {"model": "m", "messages": [{"role": "user", "content": "?"}]}
        first = client.chat.completions.create(**ask, logprobs=True, top_logprobs=1)
        second = client.chat.completions.create(**ask, logprobs=True, top_logprobs=2)
        third = client.chat.completions.create(**ask)
    tokens = first.choices[0].logprobs.content
    assert "".join(t.token for t in tokens) == "go right now"
    assert all(t.logprob == 0.0 and len(t.top_logprobs) == 1 for t in tokens)
    (up,) = second.choices[0].logprobs.content
    assert (up.token, up.logprob) == ("UP", -0.1)
    assert [(t.token, t.logprob) for t in up.top_logprobs] == [("UP", -0.1), ("DOWN", -2.5)]
    assert third.choices[0].logprobs is None


def test_server_json_mode_and_image_parts():
    with scripted_openai_server(lambda body: ScriptedReply.text({"action": "right", "why": "open"})) as server:
        completion = plain_client(server).chat.completions.create(
            model="m",
            response_format={"type": "json_object"},
            messages=[
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "which move?"},
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                    ],
                }
            ],
        )
    assert json.loads(completion.choices[0].message.content) == {"action": "right", "why": "open"}
    (request,) = server.requests
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.prompt_text == "which move?"
    assert request.image_urls == ["data:image/png;base64,iVBORw0KGgo="]


def test_server_errors_carry_status_body_and_headers():
    script = [ScriptedReply.error(429, "too many", headers={"Retry-After": "7"}), ScriptedReply.error(400, "bad")]
    with scripted_openai_server(script) as server:
        client = plain_client(server)
        ask = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        with pytest.raises(openai.RateLimitError) as limited:
            client.chat.completions.create(**ask)
        with pytest.raises(openai.BadRequestError) as bad:
            client.chat.completions.create(**ask)
        with pytest.raises(openai.InternalServerError, match="script exhausted"):
            client.chat.completions.create(**ask)
    assert limited.value.response.headers["retry-after"] == "7"
    assert limited.value.body["message"] == "too many"
    assert bad.value.status_code == 400


def test_server_refuses_malformed_requests():
    with scripted_openai_server(["unused"]) as server:
        client = plain_client(server)
        with pytest.raises(openai.BadRequestError, match="messages"):
            client.chat.completions.create(model="m", messages=[])
        with pytest.raises(openai.NotFoundError):
            client.completions.create(model="m", prompt="old api")
    assert server.side_requests[-1].path == "/v1/completions"  # not a chat path: kept apart from the chat requests


def test_server_enqueue_extends_the_script():
    with scripted_openai_server([]) as server:
        server.enqueue("one", ScriptedReply.text("two"))
        client = plain_client(server)
        ask = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        replies = [client.chat.completions.create(**ask).choices[0].message.content for _ in range(2)]
    assert replies == ["one", "two"]


def test_rules_are_the_default_fallback():
    assert isinstance(LLMParser(None)._fallback, RuleBasedParser)  # type: ignore[arg-type]
