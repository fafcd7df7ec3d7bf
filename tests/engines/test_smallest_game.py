"""Adding a game is an engine, a board presenter and a registry line each: the smallest complete game (Nim,
tests/support/smallest_game.py) registered with those lines only passes the engine conformance suite and is played
through the platform: created, moved by the match service, its pages drawn for each seat and spectators, agents'
prompts built from its seat views."""

from __future__ import annotations

import pytest

from gameplay.boards import BoardPresenter
from gameplay.boards import registry as boards
from gameplay.engines import registry as engines
from gameplay.reads import result_lines, selectors
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


def test_the_smallest_game_says_why_it_ended():
    state = NimGame({"pile": 3}).new_initial_state(0)
    state.apply_action(0, "take:2")
    assert state.end_reason() is None
    state.apply_action(1, "take:1")
    assert state.end_reason() == "Player 2 took the last stone."


@pytest.mark.django_db
def test_the_status_line_says_who_won_and_why(nim):
    human = SeatController("human")
    match = services.create_match("nim", [human, human], seed=1, options={"pile": 2}, host_seat=0)
    match = services.submit_action(match.pk, 0, "take:2", expected_version=match.version)
    names = {0: "Player 1", 1: "Player 2"}
    state = selectors.state_of(match)
    assert result_lines.result_text(match, names, 0, state) == "You won! Player 1 took the last stone."
    assert result_lines.result_text(match, names, 1, state) == "You lost. Player 1 won. Player 1 took the last stone."
