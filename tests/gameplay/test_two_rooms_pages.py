"""Two Rooms and a Boom's board template (templates/games/two_rooms_and_a_boom/board.html) over seeded random
playouts at 6, 7 and 10 seats: at every step, each seat's board holds none of another seat's secrets (the engine's
secrets(): card and colour sentences) beyond what that seat itself knows, every control sends an id the engine
offers that seat now, and the seat to act gets its phase's controls; at the end every page reveals every card.
A replay frame (a view without actions) draws no controls."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from django.template.loader import render_to_string

from gameplay.engines.two_rooms_and_a_boom import TwoRoomsGame
from gameplay.engines.two_rooms_and_a_boom.cards import CARD_NAMES
from gameplay.web.rendering import board_context

TEMPLATE = "games/two_rooms_and_a_boom/board.html"
SENT_IDS = re.compile(r'"action_id": "([^"]+)"|<option value="([^"]+)"|name="action_id" value="([^"]+)"')
CONTROL = {"talk": "Done talking for this round", "hostages": "Send the hostage", "parley": "Say in the parley",
           "gamble": "Bet that"}


def board(state, seat, live=True):
    """The board as a page draws it: the seat's observation and its presenter's context (rendering.board_context);
    a replay frame's view has no actions (selectors.replay_frames)."""
    view = state.seat_view(seat)
    if not live:
        view = replace(view, legal_actions=(), text_actions=())
    context = {"obs": view.facts, "version": 7, **board_context(view)}
    if live:
        context["view"] = view
    return render_to_string(TEMPLATE, context), view


@pytest.mark.parametrize(("seats", "seed"), [(6, 0), (7, 1), (10, 2)])
def test_each_seats_board_shows_only_its_own_knowledge_and_the_engines_actions(seats, seed):
    state = TwoRoomsGame({}, seats).new_initial_state(seed)
    rng = random.Random(seed)
    while True:
        secrets = state.secrets()
        for seat in range(seats):
            html, view = board(state, seat)
            own = set(secrets.get(seat, ()))
            for other, lines in secrets.items():
                for line in lines:
                    if other != seat and line not in own:
                        assert line not in html, f"seat {seat} sees {line!r}"
            offered = {a.id for a in view.legal_actions} | {t.id for t in view.text_actions}
            sent = {next(g for g in m.groups() if g) for m in SENT_IDS.finditer(html)}
            assert sent == offered, (sent ^ offered, state.phase)
            if offered:
                assert CONTROL[state.phase] in html
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        texts = state.text_actions(seat)
        if texts and rng.random() < 0.3:
            state.apply_action(seat, rng.choice(texts).id, "a <b>word</b>")
        else:
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
    for seat in range(seats):
        html, _ = board(state, seat)
        assert html.count('class="tr-mini') == seats
        for card in state.cards:
            assert f'<span class="cd">{CARD_NAMES[card]}</span>' in html
        assert "<b>word" not in html  # messages are escaped
    assert any("a &lt;b&gt;word&lt;/b&gt;" in board(state, seat)[0] for seat in range(seats))


def test_a_replay_frame_draws_the_board_without_controls():
    state = TwoRoomsGame({}, 6).new_initial_state(0)
    for seat in (None, 0):
        html, _ = board(state, seat, live=False)
        assert 'class="tworooms"' in html and "tr-controls" not in html and "ws-send" not in html
