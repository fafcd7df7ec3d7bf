"""The new-match form of every game (issue 39, point 4): each option under its declared human label with its
description as help text, the seats in a "Who plays each seat" group (each carrying its index for
static/js/new_match.js) and the options in an "Options" group after them, the number of seats as "Players" where a
game lets it be chosen; and the seats beyond the chosen number ignored when no script hid them."""

from __future__ import annotations

import html
import re

import pytest

from gameplay.engines.registry import all_specs
from gameplay.models import Match

pytestmark = pytest.mark.django_db

SPECS = all_specs()


def page(client, game_id: str) -> str:
    response = client.get(f"/games/{game_id}/new/")
    assert response.status_code == 200
    return response.content.decode()


def label_of(page_html: str, field_id: str) -> str:
    found = re.search(rf'<label for="{field_id}">(.*?)</label>', page_html, re.S)
    assert found, f"no label for {field_id}"
    return html.unescape(found.group(1)).strip()


def help_of(page_html: str, field_id: str) -> str:
    found = re.search(rf'<small id="{field_id}_helptext">(.*?)</small>', page_html, re.S)
    assert found, f"no help text for {field_id}"
    return html.unescape(found.group(1)).strip()


def fieldset(page_html: str, legend: str) -> str:
    found = re.search(rf"<fieldset[^>]*>\s*<legend>{re.escape(legend)}</legend>(.*?)</fieldset>", page_html, re.S)
    assert found, f"no fieldset {legend!r}"
    return found.group(1)


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_every_option_shows_its_human_label_with_its_description(client, spec):
    text = page(client, spec.id)
    assert "Num seats" not in text
    for option in spec.options:
        field_id = f"id_opt_{option.name}"
        label = label_of(text, field_id)
        assert label == option.label
        assert "_" not in label, f"{spec.id}: {option.name} is shown as {label!r}"
        if "_" in option.name:
            assert label != option.name
        assert help_of(text, field_id) == option.description
        # The control is described by its help text (screen readers read it after the label).
        assert re.search(rf'id="{field_id}"[^>]*aria-describedby="{field_id}_helptext', text) or re.search(
            rf'aria-describedby="{field_id}_helptext[^"]*"[^>]*id="{field_id}"', text)


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_seats_then_options_in_their_groups_and_players_only_where_the_count_varies(client, spec):
    text = page(client, spec.id)
    seats = fieldset(text, "Who plays each seat")
    assert re.findall(r'data-seat="(\d+)"', seats) == [str(i) for i in range(spec.max_seats)]
    assert all(f'name="seat_{i}"' in seats for i in range(spec.max_seats))
    hidden_or_off = r'<div class="field"[^>]*\shidden|<select[^>]*\sdisabled'
    assert not re.search(hidden_or_off, seats), "without the script every seat shows, and works"
    if spec.options:
        options = fieldset(text, "Options")
        assert all(f'name="opt_{o.name}"' in options for o in spec.options)
        assert text.index("Who plays each seat") < text.index("<legend>Options</legend>")
    else:
        assert "<legend>Options</legend>" not in text
    if spec.min_seats == spec.max_seats:
        assert 'name="num_seats"' not in text
    else:
        assert label_of(text, "id_num_seats") == "Players"
        assert f"{spec.min_seats} to {spec.max_seats}" in help_of(text, "id_num_seats")
        assert "data-seat-count" in text and text.index('name="num_seats"') < text.index("Who plays each seat")
    assert "js/new_match.js" in text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "the CSP allows no inline script"
    assert not re.search(r"\son[a-z]+=", text), "the CSP allows no inline event handler"


def test_seats_beyond_the_chosen_number_are_ignored_without_the_script(client):
    """Without the script every seat is sent; only the first num_seats count (a second "you" beyond them would be
    refused as two seats for one person)."""
    seats = {f"seat_{i}": "agent:random" for i in range(10)}
    seats.update(seat_0="you", seat_7="you", seat_9="invite")
    response = client.post("/games/two_rooms_and_a_boom/new/", {**seats, "num_seats": "6", "seed": "3"})
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    assert match.seats.count() == 6
