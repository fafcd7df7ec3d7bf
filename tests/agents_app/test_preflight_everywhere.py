"""One preflight everywhere (issue 22, point 4): the new-match form and a study refuse an LLM configuration
whose endpoint cannot give what it needs (RAP without logprobs, vision without images), with the reason, like
play_match and tournaments do; ordinary configurations are not probed at all."""

from __future__ import annotations

import pytest

from agents_app import services as agent_services
from gameplay.models import Match
from gameplay.studies.models import Study
from gameplay.studies.presets import PresetError, load_preset
from tests.agents_app.llm_match_support import llm_config
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = pytest.mark.django_db


def no_logprobs_no_images(body) -> ScriptedReply:
    if any(isinstance(m.get("content"), list) for m in body["messages"]):
        return ScriptedReply.error(400, "image input is not supported by this model")
    return ScriptedReply.text({"action": "x"}, logprobs=[])


@pytest.fixture
def endpoint(monkeypatch):
    monkeypatch.setattr(agent_services, "_readiness", {})
    with scripted_openai_server(no_logprobs_no_images) as server:
        yield server


def test_the_new_match_form_refuses_rap_without_logprobs_and_says_why(client, endpoint):
    llm_config("rapper", endpoint.base_url, scaffold="rap")
    response = client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:rapper", "seed": "3"})
    assert response.status_code == 200  # the form again, with the reason beside the seat
    page = response.content.decode()
    assert "This agent cannot play now" in page and "RAP needs logprobs" in page
    assert not Match.objects.exists()
    asked = len(endpoint.requests)
    client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:rapper", "seed": "3"})
    assert len(endpoint.requests) == asked  # the verdict is kept for a minute: no second probe


def test_the_new_match_form_refuses_vision_on_an_endpoint_without_images(client, endpoint):
    llm_config("looker", endpoint.base_url, vision=True)
    response = client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:looker", "seed": "3"})
    assert "refuses images" in response.content.decode() and not Match.objects.exists()


def test_an_ordinary_configuration_is_not_probed_and_plays(client, endpoint):
    llm_config("plain", endpoint.base_url)
    response = client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:plain", "seed": "3"})
    assert response.status_code == 302 and Match.objects.count() == 1
    assert endpoint.requests == []  # no probe (and no move yet: the person plays first)


def test_a_study_refuses_a_condition_whose_agent_cannot_play(endpoint):
    llm_config("rapper", endpoint.base_url, scaffold="rap")
    preset = {
        "slug": "rap-study",
        "title": "RAP",
        "game_id": "santorini",
        "rounds": [{}],
        "conditions": [
            {"key": "rap", "label": "RAP", "seats": [{"kind": "participant"}, {"kind": "agent", "agent": "rapper"}]}
        ],
    }
    with pytest.raises(PresetError, match="cannot play: rapper: RAP needs logprobs"):
        load_preset(preset)
    assert not Study.objects.exists()
