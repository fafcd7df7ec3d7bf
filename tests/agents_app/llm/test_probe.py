"""probe(): what an endpoint supports, found out with real requests; and what that means for a configuration."""

from __future__ import annotations

import socket

from agents_app.agents.llm import blocking_problems, probe, requires_logprobs
from agents_app.agents.llm.probe import JSON_PROBE_TOKENS, tiny_png
from agents_app.agents.llm.rap import NO_LOGPROBS_REASON
from tests.agents_app.llm import settings_for
from tests.support.openai_server import ScriptedReply, scripted_openai_server


def capable(body: dict) -> ScriptedReply:
    """An endpoint with JSON mode, logprobs (the server adds them when asked) and vision."""
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
    assert (report.json_mode, report.logprobs, report.images) == (True, True, True)
    assert report.errors == () and report.latency_ms is not None
    first, second, third = server.requests
    assert first.body["response_format"] == {"type": "json_object"}
    # Enough tokens to finish the object (at 20 an enforcing endpoint's reply was cut and read as "no").
    assert first.body["max_tokens"] == JSON_PROBE_TOKENS >= 100 and second.body["max_tokens"] == 20
    assert second.body["logprobs"] is True and second.body["top_logprobs"] == 5
    assert third.image_urls and third.image_urls[0].startswith("data:image/png;base64,")
    lines = report.lines()
    assert "JSON mode: yes" in lines[1] and "logprobs: yes" in lines[2] and "images: yes" in lines[3]
    assert blocking_problems(settings_for(server, scaffold="rap", vision=True), report) == []


def test_a_plain_endpoint_reports_no_logprobs_and_blocks_rap():
    with scripted_openai_server(plain) as server:
        report = probe(settings_for(server, http_retries=0), environ={})
    assert (report.json_mode, report.logprobs, report.images) == (False, False, False)
    assert "not a JSON object" in report.json_mode_detail and not report.json_mode_rejected
    assert "HTTP 400: image input is not supported" in report.images_detail
    assert len(report.errors) == 1 and report.errors[0].startswith("probe-image")
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
    assert len(report.errors) == 3 and all("connection error" in e for e in report.errors)
    assert report.lines()[4] == "latency: unknown (no reply)"


def test_the_probe_image_is_a_real_png():
    png = tiny_png()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"IHDR" in png and png.endswith(b"IEND\xaeB`\x82")
