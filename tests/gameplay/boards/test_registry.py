"""The board presenters' registry: every registered board names a template that exists and static assets that
exist (a page loads them in its head), and every board that draws page geometry (``layout``) draws it for every
seat's view and the public one, from the first position to the last, as the engines' capability flags once made
the conformance suite check."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

import pytest
from django.template.loader import get_template

from gameplay.boards.base import BoardPresenter
from gameplay.boards.registry import PRESENTERS, presenter_for
from gameplay.engines.registry import GAMES, create_game

STATIC = Path(__file__).resolve().parents[3] / "static"
# Board geometry is drawn every few steps of a few random playouts, and at their ends; a long game is played with
# a shorter cap of its own so that it ends soon.
CHECK_EVERY, SEEDS = 7, (0, 1, 2)
SHORT = {"hive": {"max_turns": 80}, "sea_battle": {"turn_cap": 20}, "gnomes": {"turn_cap": 60}}


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_a_presenter_names_its_game_a_template_and_assets_that_exist(game_id):
    presenter = PRESENTERS[game_id]
    assert game_id in GAMES, f"a board for {game_id}, which is no registered game"
    get_template(presenter.template)  # raises TemplateDoesNotExist
    if presenter.live_template:
        get_template(presenter.live_template)
    for asset in (*presenter.css, *presenter.js):
        assert (STATIC / asset).is_file(), f"{game_id}'s board declares {asset}, which is not under static/"
    assert all(a.endswith(".css") for a in presenter.css) and all(a.endswith(".js") for a in presenter.js)


def test_a_game_without_a_board_of_its_own_gets_the_generic_one():
    generic = presenter_for("no_such_game")
    assert generic.generic and not generic.css and not generic.js and not generic.image_coords
    get_template(generic.template)


def _draws_geometry(presenter: BoardPresenter) -> bool:
    return type(presenter).layout is not BoardPresenter.layout


def _check_layouts(presenter: BoardPresenter, state, game_id: str, step: int) -> None:
    for seat in [*range(state.game.num_seats), None]:
        layout = presenter.layout(state.seat_view(seat))
        assert isinstance(layout, Mapping), f"{game_id}'s layout of seat {seat} at step {step} must be a dict"


@pytest.mark.parametrize("game_id", sorted(g for g, p in PRESENTERS.items() if _draws_geometry(p)))
def test_page_geometry_is_drawn_for_every_seat_from_start_to_end(game_id):
    presenter = PRESENTERS[game_id]
    for seed in SEEDS:
        rng = random.Random(seed)
        game = create_game(game_id, SHORT.get(game_id))
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal():
            assert step < game.max_actions(), f"{game_id} seed {seed} did not end"
            if step % CHECK_EVERY == 0:
                _check_layouts(presenter, state, game_id, step)
            seat = rng.choice(state.current_seats())
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
            step += 1
        _check_layouts(presenter, state, game_id, step)
