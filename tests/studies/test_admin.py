"""The study admin, through Django admin's real add/change forms: tables for rounds and Likert items, plain
seats and options for conditions, and the study rules (the same as load_study) with errors beside the field."""

from __future__ import annotations

import re

import pytest

from gameplay.reads.agent_directory import agent_choices
from gameplay.studies.models import Condition, Study
from tests.studies.admin_support import ADD, admin_client, errors_near, study_post  # noqa: F401 (a fixture)
from tests.support.presets import load_gnomes_preset

pytestmark = pytest.mark.django_db


def test_the_add_form_shows_tables_not_json(admin_client):  # noqa: F811
    html = admin_client.get(ADD).content.decode()
    assert 'name="rounds-0-play"' in html and 'name="likert_items-0-prompt"' in html
    assert '"kind"' not in html  # no JSON to type
    assert 'value="engagement"' in html  # the default Likert items, ready to edit


def test_a_new_condition_chooses_each_seat_among_a_participant_and_the_agents_of_the_game(admin_client):  # noqa: F811
    html = admin_client.get(ADD + "?game_id=gnomes").content.decode()
    seat = re.search(r'<select name="conditions-__prefix__-seat_players-1"[^>]*>(.*?)</select>', html, re.S).group(1)
    agents = [f"agent:{name}" for name, _ in agent_choices("gnomes")]
    assert re.findall(r'value="([^"]*)"', seat) == ["participant", *agents]
    assert 'aria-label="Seat 2: Gnome B"' in html
    first = re.search(r'<select name="conditions-__prefix__-seat_players-0"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert '<option value="participant" selected>' in first  # a new condition starts as a participant ...
    assert f'<option value="{agents[0]}" selected>' in seat  # ... against the first agent of the game
    # Every empty row of the rounds table shows the game's defaults: ticking Play is all a round takes.
    assert re.search(r'name="rounds-4-turn_cap" value="200"', html)


def test_a_valid_study_is_saved_with_typed_rounds_and_conditions(admin_client):  # noqa: F811
    response = admin_client.post(ADD, study_post(conditions=[
        ("random", "Random agent", "participant, random", ""),
        ("human", "Another participant", "participant, participant", ""),
    ], rounds=[{"win_on_any_level3": True}, {}]))
    assert response.status_code == 302, response.content.decode()[:3000]
    study = Study.objects.get(slug="santorini-admin")
    assert study.rounds == [
        {"alternate_workers": False, "win_on_any_level3": True, "max_turns": 0},
        {"alternate_workers": False, "win_on_any_level3": False, "max_turns": 0},
    ]
    assert study.likert_items == [{"key": "fun", "prompt": "How much fun was it?", "low": "None", "high": "A lot"}]
    seats = {c.key: c.seats for c in study.conditions.all()}
    assert seats == {
        "random": [{"kind": "participant"}, {"kind": "agent", "agent": "random"}],
        "human": [{"kind": "participant"}, {"kind": "participant"}],
    }


def test_an_unknown_agent_is_an_error_beside_the_seats_and_nothing_is_saved(admin_client):  # noqa: F811
    response = admin_client.post(ADD, study_post(conditions=[("llm", "LLM", "participant, randon", "")]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "unknown agent" in errors_near(html, "conditions-0-seat_players-0").lower()
    assert '<option value="agent:randon" selected>agent:randon</option>' in html  # shown as sent, beside its error
    assert not Study.objects.exists() and not Condition.objects.exists()


def test_an_unknown_game_is_an_error_beside_the_game_and_nothing_is_saved(admin_client):  # noqa: F811
    response = admin_client.post(ADD, study_post(game="chess"))
    assert response.status_code == 200
    assert "valid choice" in errors_near(response.content.decode(), "game_id")
    assert not Study.objects.exists()


def test_out_of_range_options_are_errors_beside_their_field_and_nothing_is_saved(admin_client):  # noqa: F811
    gnomes = {"game": "gnomes", "conditions": [("mute", "Mute agent", "participant, gnomes-mute", "chat=off")]}
    response = admin_client.post(ADD, study_post(rounds=[{"round": 1, "turn_cap": 5000, "first_seat": 0}], **gnomes))
    assert response.status_code == 200
    assert "turn_cap" in errors_near(response.content.decode(), "rounds-0-play")
    response = admin_client.post(ADD, study_post(
        rounds=[{"round": 1, "turn_cap": 200, "first_seat": 0}], game="gnomes",
        conditions=[("mute", "Mute agent", "participant, gnomes-mute", "turn_cap=0")],
    ))
    assert response.status_code == 200
    assert "turn_cap" in errors_near(response.content.decode(), "conditions-0-options_text")
    response = admin_client.post(ADD, study_post(
        rounds=[{"round": 1, "turn_cap": 200, "first_seat": 0}], game="gnomes",
        conditions=[("mute", "Mute agent", "participant", "")],  # Gnome B left to choose
    ))
    assert response.status_code == 200
    assert "2 seats, not 1" in errors_near(response.content.decode(), "conditions-0-seat_players-0")
    assert not Study.objects.exists()


def test_editing_a_loaded_preset_shows_its_rounds_and_refuses_a_typo(admin_client):  # noqa: F811
    load_gnomes_preset()
    study = Study.objects.get(slug="gnomes-seeds003")
    url = f"/admin/studies/study/{study.pk}/change/"
    html = admin_client.get(url).content.decode()
    assert 'name="rounds-4-play" aria-label="Play, row 5" checked' in html
    mute = next(i for i, c in enumerate(study.conditions.order_by("pk")) if c.key == "mute")
    assert re.search(rf'name="conditions-{mute}-seat_players-1"[^>]*>.*?<option value="agent:gnomes-mute" selected>',
                     html, re.S)
    conditions = list(study.conditions.order_by("pk"))
    data = study_post(game="gnomes", rounds=[{"round": 1, "turn_cap": 200}], slug=study.slug,
                      conditions=[(c.key, c.label, "participant, gnomes-mutte" if c.key == "mute" else
                                   ", ".join("participant" if s["kind"] == "participant" else s["agent"]
                                             for s in c.seats), "") for c in conditions],
                      pairing_fallback_agent="gnomes-comm")
    data["conditions-INITIAL_FORMS"] = str(len(conditions))
    for i, c in enumerate(conditions):
        data[f"conditions-{i}-id"] = str(c.pk)
        data[f"conditions-{i}-study"] = str(study.pk)
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "unknown agent" in response.content.decode().lower()
    study.refresh_from_db()
    assert len(study.rounds) == 5  # nothing was saved
    assert study.conditions.get(key="mute").seats[1] == {"kind": "agent", "agent": "gnomes-mute"}
