"""Issue 39, point 1: every game has a rules page for people, reachable from the lobby, the new-match form and a help
panel on its match pages; it has every section, and its glossary of actions names every action label the game can
show a player (checked against the labels of seeded random games, with every option flipped too)."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest

from gameplay.boards import presenter_for
from gameplay.engines.api import IllegalActionError
from gameplay.engines.registry import GAMES
from tests.engines.conformance import DEFAULT_TEXTS, with_numbered_variants

pytestmark = pytest.mark.django_db
GAME_IDS = sorted(GAMES)
SECTIONS = ("brief", "winning", "setup", "turn", "actions", "special", "example", "ending")
PLAYOUTS, MAX_STEPS = 6, 400


def section_text(html: str, section: str) -> str:
    match = re.search(rf'<section id="{section}"[^>]*>(.*?)</section>', html, re.S)
    assert match, f"no {section!r} section"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def glossary(html: str) -> list[str]:
    return [unescape(name) for name in re.findall(r'<dt data-action="([^"]+)"', html)]


def option_presets(cls) -> list[dict]:
    """The defaults and every switch flipped, each with the options that keep a match short (their short_value)."""
    short = {o.name: o.short_value for o in cls.spec.options if o.short_value is not None}
    flipped = {o.name: not o.default for o in cls.spec.options if o.type is bool}
    return [short, {**flipped, **short}] if flipped else [short]


def labels_seen(game_id: str) -> set[str]:
    """Every label of an action (structured or free text) offered to any seat in seeded random games."""
    cls = GAMES[game_id]
    labels: set[str] = set()
    for options in option_presets(cls):
        game = cls(options)
        for seed in range(PLAYOUTS):
            rng, state = random.Random(seed), game.new_initial_state(seed)
            for _step in range(MAX_STEPS):
                if state.is_terminal():
                    break
                if state.awaiting_verdict():
                    state.apply_verdict(state.fallback_verdict(), "rule")
                    continue
                for seat in range(game.num_seats):
                    labels.update(a.label for a in state.legal_actions(seat))
                    labels.update(t.label for t in state.text_actions(seat))
                seat = rng.choice(state.current_seats())
                actions = state.legal_actions(seat)
                if actions:
                    state.apply_action(seat, rng.choice(actions).id)
                else:
                    submit_text(state, seat, rng)
    return labels


def submit_text(state, seat: int, rng: random.Random) -> None:
    spec = rng.choice(state.text_actions(seat))
    for text in with_numbered_variants(DEFAULT_TEXTS):
        try:
            state.apply_action(seat, spec.id, text)
            return
        except IllegalActionError:
            continue
    raise AssertionError(f"no text accepted for {spec.id!r}")


def test_every_game_has_a_rules_template():
    assert [g for g in GAME_IDS if not presenter_for(g).rules_template] == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_rules_page_has_every_section_and_a_glossary_of_every_action_label(client, game_id):
    response = client.get(f"/games/{game_id}/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for section in SECTIONS:
        assert len(section_text(html, section)) > 40, f"{game_id}: the {section!r} section says (almost) nothing"
    names = glossary(html)
    assert names, f"{game_id}: no <dt data-action> in the glossary"
    unexplained = sorted(label for label in labels_seen(game_id) if not label.startswith(tuple(names)))
    assert unexplained == [], f"{game_id}: labels its rules page never explains: {unexplained[:10]}"


def test_the_lobby_and_the_new_match_form_link_the_rules(client):
    lobby = client.get("/").content.decode()
    for game_id in GAME_IDS:
        assert f'href="/games/{game_id}/rules/"' in lobby, game_id
    form = client.get("/games/santorini/new/").content.decode()
    assert 'href="/games/santorini/rules/"' in form


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/games/chess/rules/").status_code == 404
