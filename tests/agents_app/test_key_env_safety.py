"""An LLM configuration cannot make the platform send its own secrets (issue 13, point 7).

The NAME in ``api_key_env`` is checked where it is entered (the model's clean, so the admin shows the error
beside the field) and again where the key would be read before a request (a row saved past the form sends
nothing and the agent falls back). The key travels only to the configured host: redirects are not followed.
"""

from __future__ import annotations

import json
import logging

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from agents_app.agents.llm import LLMAgent
from agents_app.agents.llm.client import ChatCaller, GiveUp, make_openai_client
from agents_app.key_policy import key_env_policy
from agents_app.models import AgentConfig
from tests.agents_app.llm import SleepRecorder, santorini_view, settings_for
from tests.support.openai_server import ScriptedReply, scripted_openai_server

PROJECT_SECRETS = ["SECRET_KEY", "DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_SETTINGS_MODULE"]
SECRET = "sk-must-never-leave-Hq3T9wLr2X"


def config(**fields) -> AgentConfig:
    values = {"name": "keyed", "base_url": "http://127.0.0.1:9/v1", "model": "m", **fields}
    return AgentConfig(**values)


@pytest.mark.django_db
@pytest.mark.parametrize("name", PROJECT_SECRETS + ["EMAIL_HOST_PASSWORD", "SENTRY_DSN", "PGPASSWORD"])
def test_the_model_refuses_the_projects_own_secrets(name):
    with pytest.raises(ValidationError) as err:
        config(api_key_env=name).full_clean()
    assert "api_key_env" in err.value.message_dict


def agent_fixture(tmp_path, api_key_env: str) -> str:
    """A loaddata fixture of one configuration (a raw save: every field given, as dumpdata writes them)."""
    fields = {"name": "exfil", "base_url": "https://attacker.example/v1", "model": "m", "api_key_env": api_key_env,
              "created_at": "2026-11-28T00:00:00Z", "updated_at": "2026-11-28T00:00:00Z"}
    path = tmp_path / "agents.json"
    path.write_text(json.dumps([{"model": "agents_app.agentconfig", "pk": 1, "fields": fields}]))
    return str(path)


@pytest.mark.django_db
def test_loaddata_refuses_a_configuration_naming_the_projects_secret(tmp_path):
    """Issue 37: loaddata skips clean (and Model.save); the refusal holds on every save."""
    with pytest.raises(ValidationError) as err:
        call_command("loaddata", agent_fixture(tmp_path, "SECRET_KEY"), verbosity=0)
    assert "'exfil' was not saved: SECRET_KEY holds one of the platform's own secrets" in str(err.value)
    assert not AgentConfig.objects.exists()
    call_command("loaddata", agent_fixture(tmp_path, "EXFIL_API_KEY"), verbosity=0)  # the same fixture, a key name
    assert AgentConfig.objects.get().api_key_env == "EXFIL_API_KEY"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["DATABASE_URL", "HOME"])
def test_code_cannot_store_a_refused_variable_without_clean(name):
    with pytest.raises(ValidationError) as err:
        config(api_key_env=name).save()
    assert "api_key_env" in err.value.message_dict
    assert not AgentConfig.objects.exists()


@pytest.mark.parametrize("name", ["SANTORINI_LLM_API_KEY", "OPENAI_API_KEY", "MY_KEY", ""])
def test_key_variables_of_the_fixtures_and_tests_are_accepted(name):
    assert key_env_problem_now(name) == ""


@pytest.mark.parametrize("name", ["HOME", "PATH", "USER", "LANG", "PYTHONPATH", "_private", "openai_api_key"])
def test_by_default_only_names_shaped_like_a_key_are_allowed(name):
    """An allow-list, not only a deny-list: a deployment's other variables are refused without being listed."""
    assert "LLM_KEY_ENV_PATTERN" in key_env_problem_now(name)


def test_a_settings_list_and_pattern_narrow_the_names(settings):
    settings.LLM_KEY_ENV_DENYLIST = ["VENDOR_API_KEY"]
    assert "own secrets" in key_env_problem_now("VENDOR_API_KEY")
    settings.LLM_KEY_ENV_PATTERN = r"^[A-Z][A-Z0-9_]*_API_KEY$"
    assert key_env_problem_now("OPENAI_API_KEY") == ""
    assert "LLM_KEY_ENV_PATTERN" in key_env_problem_now("HOME")
    # The project's secrets stay refused whatever the pattern allows.
    settings.LLM_KEY_ENV_PATTERN = r".*"
    assert key_env_problem_now("SECRET_KEY") and key_env_problem_now("DATABASE_URL")


@pytest.mark.django_db
def test_the_admin_shows_the_refusal_beside_the_field(admin_client):
    response = admin_client.post(
        "/admin/agents_app/agentconfig/add/",
        {
            "name": "exfil",
            "base_url": "http://127.0.0.1:9/v1",
            "model": "m",
            "api_key_env": "SECRET_KEY",
            "temperature": "0.0",
            "max_tokens": "256",
            "timeout_s": "10",
            "retries": "2",
            "http_retries": "1",
            "explain_limit": "3",
            "scaffold": "base",
            "rap_depth": "2",
            "rap_iterations": "10",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "own secrets" in html and "field-api_key_env" in html
    assert not AgentConfig.objects.exists()


@pytest.mark.parametrize("name", ["SECRET_KEY", "DATABASE_URL"])
def test_a_refused_variable_is_never_sent_and_the_agent_falls_back(name, caplog):
    caplog.set_level(logging.INFO)
    environ = {name: SECRET}
    with scripted_openai_server(["RIGHT"] * 5) as server:
        agent = LLMAgent(settings_for(server, api_key_env=name), environ=environ, sleep=SleepRecorder())
        decision = agent.decide(santorini_view())
    assert server.requests == []  # nothing at all was sent
    assert decision.fallback_reason and "refused" in decision.fallback_reason
    assert "refused" in decision.calls[0].error
    assert "not sending the request" in caplog.text
    assert SECRET not in caplog.text and SECRET not in repr(decision)


def test_a_refused_variable_is_not_even_read_into_the_client():
    with scripted_openai_server([]) as server:
        client = make_openai_client(settings_for(server, api_key_env="SECRET_KEY"), {"SECRET_KEY": SECRET})
    assert client.api_key != SECRET


def test_a_redirect_to_another_host_does_not_carry_the_key():
    with scripted_openai_server(["RIGHT"]) as elsewhere:
        # "localhost" is another host than the configured 127.0.0.1, on another port.
        target = elsewhere.base_url.replace("127.0.0.1", "localhost") + "/chat/completions"
        redirect = ScriptedReply.error(307, headers={"Location": target})
        with scripted_openai_server([redirect]) as server:
            settings = settings_for(server, api_key_env="MY_LLM_API_KEY", http_retries=0)
            caller = ChatCaller(make_openai_client(settings, {"MY_LLM_API_KEY": SECRET}), settings)
            with pytest.raises(GiveUp) as err:
                caller.call([{"role": "user", "content": "hi"}], purpose="move")
        assert server.requests[0].headers["authorization"] == f"Bearer {SECRET}"
        assert elsewhere.requests == []
    assert "307" in err.value.reason and SECRET not in err.value.reason


def key_env_problem_now(name: str) -> str:
    """The platform's verdict under the settings of this moment (the policy is read from settings each time)."""
    return key_env_policy().problem(name)
