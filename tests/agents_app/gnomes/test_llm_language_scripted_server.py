"""The scripted OpenAI-compatible server (tests/support/openai_server.py) that the LLM-agent tests reuse."""

from __future__ import annotations

import json

import openai
import pytest

from tests.support.openai_server import ScriptedReply, TokenLogprob, scripted_openai_server

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
