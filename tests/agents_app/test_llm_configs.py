"""Stored LLM agent configurations: validation, resolution by name, delete protection, admin and the match form."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.deletion import ProtectedError

from agents_app import selectors
from agents_app.agents.registry import UnknownAgentError
from agents_app.models import AgentCall, AgentConfig
from gameplay.web.forms import controller_choices
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/agents_app/agentconfig/add/"
CHANGELIST_URL = "/admin/agents_app/agentconfig/"


def make_config(name: str = "gpt-local", **fields) -> AgentConfig:
    values = {"base_url": "http://127.0.0.1:9/v1", "model": "tiny-model", "api_key_env": "", **fields}
    config = AgentConfig(name=name, **values)
    config.full_clean()
    config.save()
    return config


def seat_it(config: AgentConfig):
    """A match in which the configuration holds seat 0 (its turn is not played: no model is asked)."""
    return services.create_match(
        "santorini",
        [SeatController("agent", agent_name=config.name), SeatController("human")],
        seed=3,
        host_seat=1,
        schedule_agents=False,
    )


def admin_form(**overrides) -> dict:
    data = {
        "name": "from-admin",
        "description": "",
        "base_url": "http://127.0.0.1:9/v1",
        "model": "tiny-model",
        "api_key_env": "MY_KEY",
        "temperature": "0.0",
        "max_tokens": "256",
        "timeout_s": "10",
        "retries": "2",
        "http_retries": "1",
        "explain_limit": "3",
        "chat_replies": "1",
        "history_moves": "8",
        "scaffold": "cot",
        "rap_depth": "2",
        "rap_iterations": "10",
        "json_mode": "on",
        "reply_format": "auto",
        "decision_deadline_s": "30",
        "context_tokens": "0",
    }
    data.update(overrides)
    return data


# --- validation ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["OPENAI_API_KEY", "MY_KEY_2", "HF_TOKEN", ""])
def test_api_key_env_takes_a_variable_name(value):
    make_config(api_key_env=value)


@pytest.mark.parametrize("value", ["sk-abc123", "my key", "2FAST", "$OPENAI_API_KEY", "KEY=value"])
def test_api_key_env_refuses_anything_but_a_variable_name(value):
    with pytest.raises(ValidationError) as err:
        make_config(api_key_env=value)
    assert "api_key_env" in err.value.message_dict


def test_a_config_may_not_take_a_built_in_agent_name():
    with pytest.raises(ValidationError) as err:
        make_config(name="random")
    assert "built-in" in str(err.value.message_dict["name"])


# --- resolution by name ------------------------------------------------------------------------------------


def test_configs_are_agents_beside_the_built_ins():
    make_config("gpt-local", description="")
    make_config("described", description="A careful player")
    assert selectors.agent_exists("random") and selectors.agent_exists("gpt-local")
    assert not selectors.agent_exists("nobody")
    choices = dict(selectors.agent_choices())
    assert choices["gpt-local"] == "tiny-model"  # no description: the model names it
    assert choices["described"] == "A careful player"
    assert "random" in choices


def test_wants_images_follows_the_vision_flag():
    make_config("sees", vision=True)
    make_config("blind", vision=False)
    assert selectors.wants_images("sees") and not selectors.wants_images("blind")
    assert not selectors.wants_images("random") and not selectors.wants_images("nobody")


def test_build_agent_refuses_unknown_names_listing_the_known_ones():
    make_config("gpt-local")
    with pytest.raises(UnknownAgentError, match="gpt-local"):
        selectors.build_agent("nobody")


def test_create_match_accepts_a_config_and_names_it_when_refusing():
    config = make_config("gpt-local")
    match = seat_it(config)
    assert match.seats.get(index=0).agent_name == "gpt-local"
    with pytest.raises(services.ServiceError) as err:
        services.create_match(
            "santorini",
            [SeatController("agent", agent_name="nobody"), SeatController("human")],
            seed=1,
            schedule_agents=False,
        )
    assert "unknown agent 'nobody'" in str(err.value) and "gpt-local" in str(err.value)


def test_configs_are_listed_in_the_new_match_form(client):
    make_config("gpt-local", description="")
    assert ("agent:gpt-local", "Agent: gpt-local — tiny-model") in controller_choices()
    html = client.get("/games/santorini/new/").content.decode()
    assert 'value="agent:gpt-local"' in html and "Agent: gpt-local — tiny-model" in html


# --- deleting ----------------------------------------------------------------------------------------------


def test_a_config_without_matches_can_be_deleted_both_ways():
    make_config("one").delete()
    make_config("two")
    AgentConfig.objects.filter(name="two").delete()
    assert not AgentConfig.objects.exists()


def test_a_config_with_a_seat_cannot_be_deleted():
    config = make_config("played")
    seat_it(config)
    with pytest.raises(ProtectedError):
        config.delete()
    # The queryset path skips Model.delete(); the receiver refuses inside Django's delete transaction, so
    # each attempt gets its own savepoint here (in autocommit it is the whole transaction that rolls back).
    with pytest.raises(ProtectedError), transaction.atomic():
        AgentConfig.objects.filter(name="played").delete()
    make_config("unplayed")
    with pytest.raises(ProtectedError), transaction.atomic():
        AgentConfig.objects.all().delete()
    assert set(AgentConfig.objects.values_list("name", flat=True)) == {"played", "unplayed"}  # all or nothing


# --- admin -------------------------------------------------------------------------------------------------


def test_admin_creates_a_config(admin_client):
    response = admin_client.post(ADD_URL, admin_form())
    assert response.status_code == 302, response.content.decode()[:2000]
    config = AgentConfig.objects.get(name="from-admin")
    assert (config.api_key_env, config.scaffold, config.max_tokens) == ("MY_KEY", "cot", 256)


@pytest.mark.parametrize(
    "overrides, field_error",
    [({"api_key_env": "sk-live-123"}, "NAME of an environment variable"), ({"name": "random"}, "built-in agent")],
)
def test_admin_refuses_a_key_value_or_a_built_in_name(admin_client, overrides, field_error):
    response = admin_client.post(ADD_URL, admin_form(**overrides))
    assert response.status_code == 200
    assert field_error in response.content.decode()
    assert not AgentConfig.objects.exists()


def test_admin_lists_configs_with_model_scaffold_and_endpoint(admin_client):
    make_config("gpt-local", scaffold="rap")
    html = admin_client.get(CHANGELIST_URL).content.decode()
    for text in ("gpt-local", "tiny-model", "Reasoning-via-Planning", "http://127.0.0.1:9/v1"):
        assert text in html


def test_admin_delete_of_a_played_config_shows_a_refusal_not_a_500(admin_client):
    config = make_config("played")
    seat_it(config)
    url = f"{CHANGELIST_URL}{config.pk}/delete/"
    page = admin_client.get(url)
    assert page.status_code == 200
    assert "has played matches" in page.content.decode()
    assert admin_client.post(url, {"post": "yes"}).status_code in (200, 403)
    bulk = admin_client.post(
        CHANGELIST_URL, {"action": "delete_selected", "_selected_action": [config.pk], "post": "yes"}
    )
    assert bulk.status_code == 200 and "has played matches" in bulk.content.decode()
    assert AgentConfig.objects.filter(pk=config.pk).exists()


def test_admin_deletes_an_unplayed_config(admin_client):
    config = make_config("unplayed")
    response = admin_client.post(f"{CHANGELIST_URL}{config.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not AgentConfig.objects.exists()


def test_agent_calls_are_read_only_in_the_admin(admin_client):
    config = make_config("played")
    match = seat_it(config)
    call = AgentCall.objects.create(
        match=match, seat=0, agent_name="played", version=0, seq=1, purpose="move", request_messages=[]
    )
    base = "/admin/agents_app/agentcall/"
    assert admin_client.get(base).status_code == 200
    assert admin_client.get(f"{base}?q={match.pk}").status_code == 200
    assert admin_client.get(f"{base}?q=not-a-number").status_code == 200
    assert admin_client.get(f"{base}?agent_name=played").status_code == 200
    assert admin_client.get(f"{base}add/").status_code == 403
    assert admin_client.get(f"{base}{call.pk}/delete/").status_code == 403
    change = admin_client.get(f"{base}{call.pk}/change/")
    assert change.status_code == 200 and 'type="submit"' not in change.content.decode().split("<form")[-1]
    admin_client.post(f"{base}{call.pk}/change/", {"purpose": "edited"})
    call.refresh_from_db()
    assert call.purpose == "move"
