"""check_agent and preflight: probing a configuration's endpoint for what it supports, with exit codes."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agents_app import services as agent_services
from agents_app.models import AgentConfig
from tests.agents_app.check_agent_support import run
from tests.agents_app.llm_match_support import llm_config
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = pytest.mark.django_db

RAP_MESSAGE = "RAP needs logprobs: this endpoint gives none — the agent will not start"


def endpoint(*, logprobs: bool):
    """A model that honours JSON mode and images, and sends token log-probabilities only if ``logprobs``."""

    def reply(body):
        if body.get("response_format"):
            return ScriptedReply.text({"ok": True})
        # An empty logprobs list makes the server answer without any, as endpoints that ignore the option do.
        return ScriptedReply(content="yes", logprobs=None if logprobs else ())

    return reply


def test_a_capable_endpoint_reports_everything_working():
    with scripted_openai_server(endpoint(logprobs=True)) as server:
        llm_config("capable", server.base_url, scaffold="cot")
        code, out, _ = run("capable")
    assert code == 0
    for line in ("reachable: yes", "JSON mode: yes", "logprobs: yes", "images: yes", "latency: ", "ready to play"):
        assert line in out
    assert server.base_url in out
    # JSON mode, logprobs, an image, and a schema in each of the two styles: one small request each
    assert len(server.requests) == 5
    assert "JSON schema: no (json_object_schema: accepted but not enforced" in out
    config = AgentConfig.objects.get(name="capable")
    assert config.capabilities == {"json_schema": False, "schema_style": "", "json_mode": True, "logprobs": True,
                                   "images": True, "context_tokens": None, "tokenizer": ""}


def test_rap_without_logprobs_is_refused_with_exit_code_2():
    with scripted_openai_server(endpoint(logprobs=False)) as server:
        llm_config("planner", server.base_url, scaffold="rap")
        code, out, err = run("planner")
    assert code == 2
    assert "logprobs: no" in out and RAP_MESSAGE in out
    assert "cannot play as configured" in err


def test_rap_with_logprobs_is_ready():
    with scripted_openai_server(endpoint(logprobs=True)) as server:
        llm_config("planner", server.base_url, scaffold="rap")
        code, out, _ = run("planner")
    assert code == 0 and RAP_MESSAGE not in out


def test_without_logprobs_a_base_agent_is_still_ready():
    with scripted_openai_server(endpoint(logprobs=False)) as server:
        llm_config("plain", server.base_url)
        code, out, _ = run("plain")
    assert code == 0 and "logprobs: no" in out and RAP_MESSAGE not in out


def test_an_unreachable_endpoint_exits_1():
    with scripted_openai_server([]) as server:
        base_url = server.base_url
    llm_config("gone", base_url, scaffold="rap", timeout_s=2)  # the server is stopped: its port refuses
    code, out, err = run("gone")
    assert code == 1
    assert "reachable: no" in out and "connection error" in out
    assert RAP_MESSAGE not in out  # nothing is known about logprobs when nothing answered
    assert "did not answer" in err


def test_json_output():
    with scripted_openai_server(endpoint(logprobs=False)) as server:
        llm_config("planner", server.base_url, scaffold="rap")
        code, out, _ = run("planner", "--json")
    report = json.loads(out)
    assert code == 2
    assert report["reachable"] is True and report["ready"] is False
    assert (report["json_mode"], report["logprobs"], report["images"]) == (True, False, True)
    assert report["problems"] == [RAP_MESSAGE] and report["scaffold"] == "rap"
    assert isinstance(report["latency_ms"], int)


def test_the_exit_codes_come_from_command_errors(capsys):
    """manage.py turns a CommandError's returncode into the process exit status (Django's run_from_argv);
    called in-process here, since run_from_argv closes the database connections the test transaction holds."""
    with scripted_openai_server(endpoint(logprobs=False)) as server:
        llm_config("planner", server.base_url, scaffold="rap")
        llm_config("plain", server.base_url)
        with pytest.raises(CommandError) as refused:
            call_command("check_agent", "planner")
        call_command("check_agent", "plain")  # 0: returns normally
    assert refused.value.returncode == 2
    assert RAP_MESSAGE in capsys.readouterr().out


@pytest.mark.parametrize("name, message", [("random", "built-in agent"), ("nobody", "no agent configuration 'nobody'")])
def test_names_that_are_not_configurations(name, message):
    llm_config("configured", "http://127.0.0.1:9/v1")
    code, out, err = run(name)
    assert code == 1 and message in err and out == ""
    if name == "nobody":
        assert "configured" in err


# --- preflight, for tournaments -----------------------------------------------------------------------------


def test_preflight_refuses_rap_on_an_endpoint_without_logprobs():
    with scripted_openai_server(endpoint(logprobs=False)) as server:
        llm_config("planner", server.base_url, scaffold="rap")
        with pytest.raises(agent_services.AgentNotReady, match="RAP needs logprobs"):
            agent_services.preflight("planner")
    assert isinstance(agent_services.AgentNotReady("x"), agent_services.ServiceError)


def test_preflight_passes_rap_with_logprobs_and_does_not_probe_other_seats():
    with scripted_openai_server(endpoint(logprobs=True)) as server:
        llm_config("planner", server.base_url, scaffold="rap")
        llm_config("plain", server.base_url, scaffold="base")
        agent_services.preflight("planner")
        probed = len(server.requests)
        agent_services.preflight("plain")
        agent_services.preflight("random")
        assert len(server.requests) == probed  # only RAP needs something the endpoint may lack
    with pytest.raises(agent_services.AgentNotReady, match="unknown agent"):
        agent_services.preflight("nobody")
