"""Shared helpers of the study admin and researcher-page tests: the admin's add-study URL, a signed-in superuser
fixture, a complete add-form submission, the errors the admin renders beside a field, and a signed-in user with the
given flags."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from gameplay.engines.registry import GAMES

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


def user_client(username: str = "someone", **flags) -> Client:
    user = get_user_model().objects.create_user(username, password="pw", **flags)
    client = Client()
    client.force_login(user)
    return client
