"""Codenames' board template (templates/games/codenames/board.html) over seeded random playouts (4, 5 and 8 seats,
the official and GameBench boards, the invalid-clue penalty): at every step only the Spymasters' boards carry the
key, and exactly the key of the unrevealed cards; an Operative's board names no unrevealed card's identity until the
end, when every board shows the whole key; every
control sends an id the engine offers that seat now, and the seat to act gets its controls (cards, the clue form,
End turn). A replay frame (no view) draws no controls."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from gameplay.engines.api import IllegalActionError
from gameplay.engines.codenames import CodenamesGame
from gameplay.engines.codenames.words import IDENTITY_NAMES
from gameplay.web.board_clicks import clicks_for

TEMPLATE = "games/codenames/board.html"
SENT_IDS = re.compile(r'"action_id": "([^"]+)"|name="action_id" value="([^"]+)"')
CARD = re.compile(r'<(?:div|button) [^>]*class="cn-card([^"]*)"[^>]*data-cell="(\d+)"[^>]*>(.*?)</(?:div|button)>',
                  re.S)
KEY = re.compile(r'data-key="([a-z]+)"')


def board(state, seat, live=True):
    mine = live and seat is not None and seat in state.current_seats()
    legal = state.legal_actions(seat) if mine else []
    view = SimpleNamespace(legal_actions=legal, text_actions=state.text_actions(seat) if mine else [])
    context = {"obs": state.observation(seat).data, "version": 7, "clicks": clicks_for(legal, ()) if live else {}}
    if live:
        context["view"] = view
    return render_to_string(TEMPLATE, context), view


def cards(html):
    """cell -> (classes, inner html) of each card on a board."""
    return {int(cell): (classes, inner) for classes, cell, inner in CARD.findall(html)}


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (4, 0, {}), (5, 1, {"invalid_clue_penalty": True}), (8, 2, {}),
    (4, 3, {"gamebench_board": True, "gamebench_end_turn_anytime": True}),
])
def test_only_spymasters_see_the_key_and_controls_are_the_engines_actions(seats, seed, options):
    state = CodenamesGame(options, seats).new_initial_state(seed)
    rng = random.Random(seed)
    while True:
        for seat in (None, *range(seats)):
            # At the end the whole key is shown to everyone, as it was to the Spymasters.
            spymaster = (seat is not None and seat < 2) or state.is_terminal()
            html, view = board(state, seat)
            shown = cards(html)
            assert sorted(shown) == list(range(len(state.words)))
            for cell, (classes, inner) in shown.items():
                assert state.words[cell] in inner
                if state.revealed[cell]:
                    assert IDENTITY_NAMES[state.key[cell]].capitalize() in inner
                elif spymaster:  # a Spymaster: the key of this card, named in words
                    assert f" key-{state.key[cell]}" in classes and f">{state.key[cell].capitalize()}<" in inner
                else:
                    assert "key-" not in classes and "label" not in inner
            keys = KEY.findall(html)
            if spymaster:
                assert sorted(keys) == sorted(k for c, k in enumerate(state.key) if not state.revealed[c])
            else:
                assert keys == [] and "key-" not in html
            offered = {a.id for a in view.legal_actions} | {t.id for t in view.text_actions}
            sent = {next(g for g in m.groups() if g) for m in SENT_IDS.finditer(html)}
            assert sent == offered, (sent ^ offered, state.phase)
            if "clue" in offered:
                assert 'class="cn-clue-form"' in html and 'name="number"' in html
            if "end_turn" in offered:
                assert ">End turn</button>" in html
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        if state.text_actions(seat):
            word = rng.choice(["zephyr", "quartz", "nimbus", state.words[rng.randrange(len(state.words))]])
            text = f"{word},{rng.choice(['1', '2', 'unlimited'])}"
            try:
                state.validate_text(seat, "clue", text)
            except IllegalActionError:
                text = "zzyzx,1"
            state.apply_action(seat, "clue", text)
        else:
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    for seat in range(seats):
        html, _ = board(state, seat)
        assert 'id="cn-result"' in html and state.result_text() in html
        assert "ws-send" not in html


def test_a_replay_frame_draws_the_board_without_controls():
    state = CodenamesGame({}, 4).new_initial_state(0)
    for seat in (None, 0, 2):
        html, _ = board(state, seat, live=False)
        assert 'class="codenames' in html and "ws-send" not in html and "cn-clue-form" not in html
