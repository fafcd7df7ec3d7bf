"""Choosing a study's game in the admin: the rounds table and the conditions' seats follow the game, with scripts (the
game-tables view that static/js/study_admin.js asks) and without (one save redraws them, the next one saves).

Without scripts, every submission here is what a browser sends from the page the server drew last (the form's
controls read from its HTML), changed only where a person would change it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from gameplay.engines.registry import game_class
from gameplay.studies.models import Study
from tests.studies.admin_support import ADD, errors_near

pytestmark = pytest.mark.django_db

TABLES = "/admin/studies/study/game-tables/"


@pytest.fixture
def admin_client(client, django_user_model):
    """A signed-in superuser, without hashing a password (pytest-django's own costs a second of CI per test)."""
    client.force_login(django_user_model.objects.create(username="admin", is_staff=True, is_superuser=True))
    return client


class FormControls(HTMLParser):
    """The successful controls of the study form as a browser submits them (the conditions' empty template row,
    named ``__prefix__``, left out, as the admin's script leaves it out)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._first_option: str | None = None
        self._chosen: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name") or ""
        if tag == "input" and name and "__prefix__" not in name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[name] = a.get("value") or "on"
            elif kind not in ("submit", "button", "file"):
                self.data[name] = a.get("value") or ""
        elif tag == "select" and "__prefix__" not in name:
            self._select, self._first_option, self._chosen = name, None, None
        elif tag == "option" and self._select:
            value = a.get("value") or ""
            self._first_option = value if self._first_option is None else self._first_option
            if "selected" in a:
                self._chosen = value
        elif tag == "textarea" and name and "__prefix__" not in name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            self.data[self._select] = self._chosen if self._chosen is not None else (self._first_option or "")
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data


def controls(html: str) -> dict[str, str]:
    parser = FormControls()
    parser.feed(html)
    return parser.data


def test_the_game_tables_view_draws_the_rounds_and_the_seats_of_the_game_asked_for(admin_client):
    html = admin_client.get(TABLES, {"game_id": "codenames", "rows": "3"}).content.decode()
    options = [o.name for o in game_class("codenames").spec.options]
    assert re.findall(r'name="rounds-0-(\w+)"', html) == ["play", *options]
    assert 'name="rounds-2-max_turns" value="50"' in html and 'name="rounds-3-play"' not in html
    assert "checked>" not in html  # every row offered, none ticked yet (and every option off by default)
    template = re.search(r'<template id="game-seats">(.*)</template>', html, re.S).group(1)
    seats = re.findall(r'<select name="__seats__-(\d+)" aria-label="Seat \d+: ([^"]+)"', template)
    assert [int(n) for n, _ in seats] == list(range(10)) and seats[2][1] == "Player 3 (Red Operative)"
    more = template[template.index("<details"):]
    assert more.count("<select") == 6 and more.count("(no seat)") == 6  # beyond Codenames' four seats
    assert "(no seat)" not in template[: template.index("<details")]
    # Read-only and staff-only: unknown games are not found, writes are refused, others are sent to log in.
    assert admin_client.get(TABLES, {"game_id": "chess"}).status_code == 404
    assert admin_client.post(TABLES, {"game_id": "codenames"}).status_code == 405
    response = Client().get(TABLES, {"game_id": "codenames"})
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_study_form_names_the_game_tables_view_and_loads_the_script(admin_client):
    html = admin_client.get(ADD).content.decode()
    assert f'data-tables-url="{TABLES}"' in html
    assert "js/study_admin.js" in html


def fill_new_study(data: dict[str, str]) -> dict[str, str]:
    return {**data, "title": "Codenames by hand", "slug": "codenames-by-hand", "consent_text": "Consent?",
            "instructions": "Give clues.", "conditions-0-key": "agents", "conditions-0-label": "With agents"}


def test_without_scripts_a_new_study_of_another_game_takes_one_redrawing_save_then_saves(admin_client):
    data = fill_new_study(controls(admin_client.get(ADD).content.decode()))
    assert data["game_id"] == data["rounds_game"] == "santorini"
    assert data["conditions-0-seat_players-0"] == "participant" and data["conditions-TOTAL_FORMS"] == "1"
    data.update({"game_id": "codenames", "rounds-0-play": "on"})  # the table still shows Santorini's options

    response = admin_client.post(ADD, data)
    assert response.status_code == 200 and not Study.objects.exists()
    html = response.content.decode()
    assert "The game changed to Codenames" in errors_near(html, "rounds-0-play")
    redrawn = controls(html)
    assert redrawn["rounds_game"] == "codenames"  # the hidden marker names the game the table is drawn for now
    assert redrawn["rounds-0-play"] == "on" and "rounds-1-play" not in redrawn
    assert redrawn["rounds-0-max_turns"] == "50" and "rounds-0-alternate_workers" not in redrawn
    # The condition's seats are Codenames' now: the two it had, and two more to choose, said beside them.
    assert [redrawn.get(f"conditions-0-seat_players-{n}") for n in range(5)] == [
        "participant", "agent:random", "", "", ""]
    assert "played with 4 to 10 seats, not 2" in errors_near(html, "conditions-0-seat_players-0")

    redrawn.update({"conditions-0-seat_players-2": "agent:random", "conditions-0-seat_players-3": "agent:random"})
    response = admin_client.post(ADD, redrawn)
    assert response.status_code == 302, errors_near(response.content.decode(), "rounds-0-play")
    study = Study.objects.get(slug="codenames-by-hand")
    defaults = {o.name: o.default for o in game_class("codenames").spec.options}
    assert study.game_id == "codenames" and study.rounds == [defaults]
    assert study.conditions.get().seats == [{"kind": "participant"}] + [{"kind": "agent", "agent": "random"}] * 3


def test_without_scripts_a_saved_studys_game_changes_in_two_saves(admin_client):
    data = fill_new_study(controls(admin_client.get(ADD).content.decode()))
    data.update({"rounds-0-play": "on", "rounds-1-play": "on"})
    assert admin_client.post(ADD, data).status_code == 302
    study = Study.objects.get()
    url = f"/admin/studies/study/{study.pk}/change/"

    data = controls(admin_client.get(url).content.decode())
    data["game_id"] = "gnomes"
    html = admin_client.post(url, data).content.decode()
    assert "The game changed to Gnomes at Night" in errors_near(html, "rounds-0-play")
    study.refresh_from_db()
    assert study.game_id == "santorini"
    redrawn = controls(html)
    assert (redrawn["rounds_game"], redrawn["rounds-1-turn_cap"], redrawn["rounds-1-play"]) == ("gnomes", "200", "on")
    redrawn["rounds-1-turn_cap"] = "30"
    response = admin_client.post(url, redrawn)
    assert response.status_code == 302, errors_near(response.content.decode(), "rounds-0-play")
    study.refresh_from_db()
    assert study.game_id == "gnomes" and [r["turn_cap"] for r in study.rounds] == [200, 30]
    assert study.conditions.get().seats == [{"kind": "participant"}, {"kind": "agent", "agent": "random"}]


def test_a_seat_left_open_before_a_taken_one_is_an_error_beside_the_seats(admin_client):
    data = fill_new_study(controls(admin_client.get(ADD + "?game_id=codenames").content.decode()))
    assert [data[f"conditions-0-seat_players-{n}"] for n in range(5)] == ["participant"] + ["agent:random"] * 3 + [""]
    data.update({"rounds-0-play": "on", "conditions-0-seat_players-3": "",
                 "conditions-0-seat_players-4": "agent:random"})  # seat 4 left open, seat 5 taken
    response = admin_client.post(ADD, data)
    assert response.status_code == 200 and not Study.objects.exists()
    assert "Seat 4 has nobody" in errors_near(response.content.decode(), "conditions-0-seat_players-0")
