"""Adding a game is an engine, a board presenter and a registry line each: the smallest complete game (Nim,
tests/support/smallest_game.py) registered with those lines only passes the engine conformance suite and is played
through the platform: created, moved by the match service, its pages drawn for each seat and spectators, agents'
prompts built from its seat views."""

from __future__ import annotations

import pytest

from gameplay.boards import BoardPresenter
from gameplay.boards import registry as boards
from gameplay.engines import registry as engines
from gameplay.reads.selectors import seat_view
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.support.seen_checks import agent_prompts, agent_view, page_of
from tests.support.smallest_game import NimGame

from .conformance import check_playouts


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setitem(engines.GAMES, "nim", NimGame)  # the registry line of the engine
    monkeypatch.setitem(boards.PRESENTERS, "nim", BoardPresenter())  # ... and of its board: the generic one
    return NimGame


def test_the_smallest_game_passes_the_conformance_suite(nim):
    finals = check_playouts(lambda: nim({"pile": 9}), n_playouts=30)
    assert {state.winner() for state in finals} == {0, 1}


@pytest.mark.django_db
def test_the_smallest_game_is_played_through_the_platform(nim, client):
    match = services.create_match("nim", [SeatController("human"), SeatController("agent", agent_name="random")],
                                  seed=1, host_seat=0)
    services.submit_action(match.pk, 0, "take:2", expected_version=match.version)
    match.refresh_from_db()
    seat = match.seats.get(index=0)
    assert "stones are left" in client.get(f"/play/{seat.token}/").content.decode()
    assert "stones are left" in page_of(match, None)
    view = seat_view(match, seat)
    assert view.seat_view.game_id == "nim" and view.seat_view.facts["pile"] <= 5
    prompts = agent_prompts(agent_view(nim().new_initial_state(1), 0, seed=1))
    assert any("Take 1" in text for text in prompts.values())
