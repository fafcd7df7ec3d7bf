"""The study admin, through Django admin's real add/change forms: tables for rounds and Likert items, plain
seats and options for conditions, and the study rules (the same as load_study) with errors beside the field."""

from __future__ import annotations

import re

import pytest

from gameplay.engines.registry import GAMES
from gameplay.reads.agent_directory import agent_choices
from gameplay.studies.models import Condition, Study
from tests.support.presets import load_gnomes_preset

pytestmark = pytest.mark.django_db

ADD = "/admin/studies/study/add/"


@pytest.fixture
def admin_client(client, django_user_model):
    """A signed-in superuser, without hashing a password (pytest-django's own costs a second of CI per test)."""
    client.force_login(django_user_model.objects.create(username="admin", is_staff=True, is_superuser=True))
    return client


def study_post(*, game="santorini", rounds=None, conditions=None, **fields) -> dict:
    """A complete add-form submission (main form, rounds and Likert tables, the conditions inline); each round's
    cells hold the game's defaults where ``rounds`` names no value, as the table shows them."""
    defaults = {o.name: o.default for o in GAMES[game].spec.options if o.default is not None} if game in GAMES else {}
    rounds = [{**defaults, **options} for options in (rounds if rounds is not None else [{}, {}])]
    conditions = conditions if conditions is not None else [("random", "Random agent", "participant, random", "")]
    data = {
        "title": "Santorini with agents", "slug": "santorini-admin", "game_id": game, "rounds_game": game,
        "consent_text": "Consent?", "instructions": "Play.", "likert_scale": "5",
        "completion_message": "Thanks", "completion_code": "", "completion_redirect_url": "",
        "assignment": "balanced", "read_url_ids": "on", "pairing_timeout_s": "120",
        "pairing_timeout_action": "agent", "pairing_fallback_agent": "random", "dropout_after_s": "1800",
        "partner_left_action": "agent", "pairing_after_timeout": "agent",
        "likert_items-0-key": "fun", "likert_items-0-prompt": "How much fun was it?",
        "likert_items-0-low": "None", "likert_items-0-high": "A lot",
        "conditions-TOTAL_FORMS": str(len(conditions)), "conditions-INITIAL_FORMS": "0",
        "conditions-MIN_NUM_FORMS": "0", "conditions-MAX_NUM_FORMS": "1000",
    }
    for i, options in enumerate(rounds):
        data[f"rounds-{i}-play"] = "on"
        for name, value in options.items():
            if value is True:
                data[f"rounds-{i}-{name}"] = "on"
            elif value is not False:
                data[f"rounds-{i}-{name}"] = str(value)
    for i, (key, label, seats, options) in enumerate(conditions):
        data.update({f"conditions-{i}-key": key, f"conditions-{i}-label": label,
                     f"conditions-{i}-options_text": options, **seat_choices(f"conditions-{i}", seats)})
    data.update(fields)
    return data


def seat_choices(row: str, seats: str) -> dict:
    """The seat selects of a condition row as a browser sends them, from "participant, random": one choice per seat."""
    names = [name.strip() for name in seats.split(",")]
    return {f"{row}-seat_players-{seat}": name if name == "participant" else f"agent:{name}"
            for seat, name in enumerate(names)}


def errors_near(html: str, field: str) -> str:
    """The error list Django's admin renders in the row of ``field`` (main form) or the inline cell."""
    block = re.search(rf'(<ul class="errorlist[^"]*"[^>]*>(?:(?!</ul>).)*</ul>)\s*(?:(?!<ul class="errorlist).)*?'
                      rf'name="{re.escape(field)}', html, re.S)
    return block.group(1) if block else ""


def test_the_add_form_shows_tables_not_json(admin_client):
    html = admin_client.get(ADD).content.decode()
    assert 'name="rounds-0-play"' in html and 'name="likert_items-0-prompt"' in html
    assert '"kind"' not in html  # no JSON to type
    assert 'value="engagement"' in html  # the default Likert items, ready to edit


def test_a_new_condition_chooses_each_seat_among_a_participant_and_the_agents_of_the_game(admin_client):
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


def test_a_valid_study_is_saved_with_typed_rounds_and_conditions(admin_client):
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


def test_an_unknown_agent_is_an_error_beside_the_seats_and_nothing_is_saved(admin_client):
    response = admin_client.post(ADD, study_post(conditions=[("llm", "LLM", "participant, randon", "")]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "unknown agent" in errors_near(html, "conditions-0-seat_players-0").lower()
    assert '<option value="agent:randon" selected>agent:randon</option>' in html  # shown as sent, beside its error
    assert not Study.objects.exists() and not Condition.objects.exists()


def test_an_unknown_game_is_an_error_beside_the_game_and_nothing_is_saved(admin_client):
    response = admin_client.post(ADD, study_post(game="chess"))
    assert response.status_code == 200
    assert "valid choice" in errors_near(response.content.decode(), "game_id")
    assert not Study.objects.exists()


def test_out_of_range_options_are_errors_beside_their_field_and_nothing_is_saved(admin_client):
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


def test_editing_a_loaded_preset_shows_its_rounds_and_refuses_a_typo(admin_client):
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
