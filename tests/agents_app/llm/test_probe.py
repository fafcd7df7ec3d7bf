"""probe(): what an endpoint supports, found out with real requests; and what that means for a configuration."""

from __future__ import annotations

import socket

from agents_app.agents.llm import blocking_problems, probe, requires_logprobs
from agents_app.agents.llm.probe import JSON_PROBE_TOKENS, tiny_png
from agents_app.agents.llm.rap import NO_LOGPROBS_REASON
from tests.agents_app.llm import settings_for
from tests.support.openai_server import ScriptedReply, scripted_openai_server


def capable(body: dict) -> ScriptedReply:
    """An endpoint with JSON schemas (OpenAI's style), JSON mode, logprobs (the server adds them when asked) and
    vision."""
    if (body.get("response_format") or {}).get("type") == "json_schema":
        enum = body["response_format"]["json_schema"]["schema"]["properties"]["pick"]["enum"]
        return ScriptedReply.text({"pick": enum[0]})  # kept inside the schema, whatever the prompt asked
    if body.get("response_format") == {"type": "json_object"}:
        return ScriptedReply.text({"ok": True})
    return ScriptedReply.text("yes")


def plain(body: dict) -> ScriptedReply:
    """An endpoint that ignores JSON mode, sends no logprobs and refuses images."""
    if any(isinstance(m.get("content"), list) for m in body["messages"]):
        return ScriptedReply.error(400, "image input is not supported by this model")
    return ScriptedReply.text("ok, here you go", logprobs=[])


def test_a_capable_endpoint_reports_everything_supported():
    with scripted_openai_server(capable) as server:
        report = probe(settings_for(server), environ={})
    assert (report.json_mode, report.logprobs, report.images, report.json_schema) == (True, True, True, True)
    assert report.schema_style == "json_schema" and "enforced" in report.json_schema_detail
    assert report.errors == () and report.latency_ms is not None
    first, second, third, fourth = server.requests
    assert fourth.body["response_format"]["type"] == "json_schema"
    assert first.body["response_format"] == {"type": "json_object"}
    # Enough tokens to finish the object (at 20 an enforcing endpoint's reply was cut and read as "no").
    assert first.body["max_tokens"] == JSON_PROBE_TOKENS >= 100 and second.body["max_tokens"] == 20
    assert second.body["logprobs"] is True and second.body["top_logprobs"] == 5
    assert third.image_urls and third.image_urls[0].startswith("data:image/png;base64,")
    lines = report.lines()
    assert "JSON schema: yes" in lines[1] and "JSON mode: yes" in lines[2] and "logprobs: yes" in lines[3]
    assert "images: yes" in lines[4]
    assert report.capabilities() == {"json_schema": True, "schema_style": "json_schema", "json_mode": True,
                                     "logprobs": True, "images": True, "context_tokens": None, "tokenizer": ""}
    assert blocking_problems(settings_for(server, scaffold="rap", vision=True), report) == []


def test_a_plain_endpoint_reports_no_logprobs_and_blocks_rap():
    with scripted_openai_server(plain) as server:
        report = probe(settings_for(server, http_retries=0), environ={})
    assert (report.json_mode, report.logprobs, report.images) == (False, False, False)
    assert "not a JSON object" in report.json_mode_detail and not report.json_mode_rejected
    assert "HTTP 400: image input is not supported" in report.images_detail
    assert len(report.errors) == 1 and report.errors[0].startswith("probe-image")
    assert not report.json_schema and "accepted but not enforced" in report.json_schema_detail
    rap = settings_for(server, scaffold="rap")
    assert requires_logprobs(rap) and not requires_logprobs(settings_for(server, scaffold="cot"))
    assert blocking_problems(rap, report) == [NO_LOGPROBS_REASON]
    assert blocking_problems(settings_for(server, scaffold="base"), report) == []
    assert any(line.startswith("logprobs: no") for line in report.lines())


def test_a_refused_json_mode_blocks_configurations_that_use_it():
    def no_json_mode(body: dict) -> ScriptedReply:
        if "response_format" in body:
            return ScriptedReply.error(400, "response_format is not supported")
        return capable(body)

    with scripted_openai_server(no_json_mode) as server:
        report = probe(settings_for(server), environ={})
    assert report.json_mode_rejected and report.logprobs
    assert blocking_problems(settings_for(server), report)[0].startswith("endpoint refuses JSON mode")
    assert blocking_problems(settings_for(server, json_mode=False), report) == []


def test_an_unreachable_endpoint_reports_errors_without_raising():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = settings_for(type("S", (), {"base_url": f"http://127.0.0.1:{port}/v1"})(), http_retries=0)
    report = probe(settings, environ={})
    assert (report.json_mode, report.logprobs, report.images, report.latency_ms) == (False, False, False, None)
    assert len(report.errors) == 5 and all("connection error" in e for e in report.errors)
    assert report.lines()[-6] == "latency: unknown (no reply)"


def test_the_probe_image_is_a_real_png():
    png = tiny_png()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"IHDR" in png and png.endswith(b"IEND\xaeB`\x82")


def test_a_schema_taken_only_beside_json_mode_is_found_as_llama_cpp_python_takes_it():
    def llama_cpp_python(body: dict) -> ScriptedReply:
        response_format = body.get("response_format") or {}
        if response_format.get("type") == "json_schema":
            return ScriptedReply.text({"pick": "gamma"})  # an unknown format: ignored, the model says what it likes
        if response_format.get("schema"):
            return ScriptedReply.text({"pick": response_format["schema"]["properties"]["pick"]["enum"][1]})
        return capable(body)

    with scripted_openai_server(llama_cpp_python) as server:
        report = probe(settings_for(server), environ={})
    assert report.json_schema and report.schema_style == "json_object_schema"
    assert server.requests[-1].body["response_format"]["type"] == "json_object"


def test_a_refused_schema_is_reported_as_refused():
    def no_schema(body: dict) -> ScriptedReply:
        if (body.get("response_format") or {}).get("type") == "json_schema" or "schema" in (
                body.get("response_format") or {}):
            return ScriptedReply.error(400, "unsupported response_format")
        return capable(body)

    with scripted_openai_server(no_schema) as server:
        report = probe(settings_for(server, http_retries=0), environ={})
    assert not report.json_schema and report.json_mode
    assert "HTTP 400: unsupported response_format" in report.json_schema_detail


def test_the_probe_reads_the_context_length_and_finds_the_servers_token_counter():
    from agents_app.agents.llm.tokens import count_tokens, estimate_tokens

    with scripted_openai_server(capable, context_tokens=4096, tokenizer="llama-cpp-python") as server:
        report = probe(settings_for(server), environ={})
        assert (report.context_tokens, report.tokenizer) == (4096, "llama-cpp-python")
        assert "context: 4096 tokens; token counting: llama-cpp-python" in report.lines()
        settings = settings_for(server, capabilities=report.capabilities())
        messages = [{"role": "user", "content": "x" * 400}]
        assert count_tokens(settings, messages) == (100 + 8, "llama-cpp-python")  # the server's count + template
    assert estimate_tokens(messages) == 148 + 8  # a token per three letters, a tenth more: errs long
    assert [r.path for r in server.side_requests][:2] == ["/props", "/extras/tokenize/count"]
    with scripted_openai_server(capable, tokenizer="llama.cpp") as server:
        report = probe(settings_for(server), environ={})
    assert (report.context_tokens, report.tokenizer) == (None, "llama.cpp")
