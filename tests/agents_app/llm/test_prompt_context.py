"""What the LLM player reads beyond its observation (issue 22, point 2): a configurable window of the match's
latest moves in its own seat's wording, and the rule topics its available actions depend on."""

from __future__ import annotations

import re

import pytest

from gameplay.engines.seat_view import refusal_checker
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery, first_listed_action, llm_config  # noqa: F401
from tests.support.openai_server import scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def history_in(prompt: str) -> list[str]:
    found = re.search(r"The latest moves, oldest first:\n((?:.+\n?)+?)(?:\n\n|$)", prompt)
    return found.group(1).strip().splitlines() if found else []


def santorini_after_the_persons_placements(name: str):
    match = services.create_match("santorini", [SeatController("human"), SeatController("agent", agent_name=name)],
                                  seed=3)
    match.refresh_from_db()
    for _ in range(2):  # the person places both workers; then the model places its two
        services.submit_action(match.pk, 0, state_of(match).legal_actions(0)[0].id, expected_version=match.version)
        match.refresh_from_db()
    return match


def test_the_prompt_lists_the_latest_moves_as_the_seat_saw_them_within_the_window():
    with scripted_openai_server(first_listed_action) as server:
        llm_config("windowed", server.base_url, history_moves=2)
        santorini_after_the_persons_placements("windowed")
    first, second = (r.prompt_text for r in server.requests[:2])
    assert history_in(first) == ["Player 1: Place a worker on A1", "Player 1: Place a worker on A2"]
    # Its own placement is now the latest; the window keeps two.
    assert history_in(second) == ["Player 1: Place a worker on A2", "You: Place a worker on A3"]
    assert "The rules your available actions depend on now are under: setup." in first


def test_a_window_of_zero_lists_no_moves():
    with scripted_openai_server(first_listed_action) as server:
        llm_config("no-history", server.base_url, history_moves=0)
        santorini_after_the_persons_placements("no-history")
    assert server.requests and all("The latest moves" not in r.prompt_text for r in server.requests)


def test_agents_that_do_not_read_the_match_context_cost_no_query_for_it():
    from agents_app.services import decide
    from gameplay.engines.registry import create_game

    def must_not_be_read():
        raise AssertionError("the random agent's turn read the chat and move history")

    state = create_game("santorini").new_initial_state(3)
    turn = decide("random", state.seat_view(0), 1, refusal=refusal_checker(state, 0), context=must_not_be_read)
    assert not turn.fallback and turn.decision.action_id in {a.id for a in state.legal_actions(0)}
