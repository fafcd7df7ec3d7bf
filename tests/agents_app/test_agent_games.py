"""Agents declare the games they play (Agent.games; issue 16, point 5): the new-match form offers an agent only for
its games, and no match, study condition or tournament starts with an agent on a game it would only play at
random. The random agent and language-model configurations play every game."""

from __future__ import annotations

import pytest

from agents_app.agents.registry import AGENTS
from agents_app.models import AgentConfig
from agents_app.tournaments import services as tournament_services
from gameplay.engines.registry import GAMES
from gameplay.models import Match
from gameplay.reads.agent_directory import agent_choices, agent_plays
from gameplay.studies.validation import condition_errors, study_errors
from gameplay.web.forms import controller_choices
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

GNOMES_ONLY = ("gnomes-comm", "gnomes-mute", "gnomes-partner")
ME = {"kind": "participant"}


def names(choices) -> set[str]:
    return {value for value, _ in choices}


def test_every_declared_game_is_a_registered_game():
    for name, cls in AGENTS.items():
        assert cls.games is None or (cls.games and cls.games <= set(GAMES)), name
    assert AGENTS["random"].games is None


def test_the_santorini_form_offers_no_gnomes_agent_and_the_gnomes_form_does(client):
    santorini = client.get("/games/santorini/new/").content.decode()
    gnomes = client.get("/games/gnomes/new/").content.decode()
    for name in GNOMES_ONLY:
        assert f'value="agent:{name}"' not in santorini
        assert f'value="agent:{name}"' in gnomes
    assert 'value="agent:random"' in santorini and 'value="agent:random"' in gnomes
    assert names(controller_choices("hive")) >= {"agent:random"}
    assert not names(controller_choices("hive")) & {f"agent:{n}" for n in GNOMES_ONLY}


def test_posting_a_gnomes_agent_for_santorini_is_refused_and_creates_nothing(client):
    response = client.post(
        "/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:gnomes-comm", "seed": "1"}
    )
    assert response.status_code == 200  # the form again, with its error
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


def test_the_service_refuses_an_agent_on_a_game_it_does_not_play():
    with pytest.raises(services.ServiceError) as err:
        services.create_match(
            "santorini",
            [SeatController("human"), SeatController("agent", agent_name="gnomes-mute")],
            seed=1,
            schedule_agents=False,
        )
    assert "agent 'gnomes-mute' does not play Santorini" in str(err.value)
    assert "random" in str(err.value) and "gnomes-comm" not in str(err.value)
    assert not Match.objects.exists()
    match = services.create_match(
        "gnomes",
        [SeatController("human"), SeatController("agent", agent_name="gnomes-mute")],
        seed=1,
        schedule_agents=False,
    )
    assert match.seats.get(index=1).agent_name == "gnomes-mute"


def test_a_language_model_configuration_plays_every_game():
    config = AgentConfig(name="gpt-local", base_url="http://127.0.0.1:9/v1", model="tiny-model", api_key_env="")
    config.full_clean()
    config.save()
    for game_id in GAMES:
        assert agent_plays("gpt-local", game_id)
        assert "gpt-local" in {name for name, _ in agent_choices(game_id)}
    assert not agent_plays("no-such-agent", "santorini")


def test_a_study_condition_or_fallback_with_an_agent_for_another_game_is_refused():
    errors = condition_errors("santorini", [{}], [ME, {"kind": "agent", "agent": "gnomes-comm"}], {})
    assert any("does not play Santorini" in message for message in errors["seats"])
    assert condition_errors("gnomes", [{}], [ME, {"kind": "agent", "agent": "gnomes-comm"}], {}) == {}
    study = {
        "slug": "s", "title": "S", "game_id": "santorini", "rounds": [{}],
        "pairing_timeout_action": "agent", "pairing_fallback_agent": "gnomes-partner",
    }
    conditions = [{"key": "pair", "seats": [ME, ME]}]
    assert any("does not play Santorini" in m for m in study_errors(study, conditions)["pairing_fallback_agent"])


def test_a_tournament_with_an_agent_for_another_game_is_refused():
    with pytest.raises(tournament_services.TournamentError) as err:
        tournament_services.create_or_resume("santorini", ["random", "gnomes-mute"], 1, 0)
    assert "agent 'gnomes-mute' does not play Santorini" in str(err.value)
