"""RAP for multi-step turns (issue 22, point 3): the predicted next actor comes from the engine (in Santorini a
move is followed by the same player's build), and every RAP call row says what it chose and the search values."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents_app.services import turn_view
from gameplay.engines.registry import create_game
from tests.agents_app.llm import agent_for, last_user_text, three_way_view
from tests.agents_app.llm.rap_support import ScriptedWorld
from tests.support.openai_server import scripted_openai_server


def predictions(server) -> dict[str, str]:
    """The predict prompts, by the action they follow (the assistant turn before the question)."""
    found = {}
    for request in server.requests:
        text = last_user_text(request.body)
        if " predict " in text.lower():
            found[request.body["messages"][-2]["content"]] = text
    return found


def test_the_engine_says_who_acts_next_and_the_prediction_prompt_follows_it():
    view = replace(
        three_way_view(),
        next_actors={"left": "you", "middle": "Player 2", "right": "nobody: the game ends"},
    )
    with scripted_openai_server(ScriptedWorld()) as server:
        agent_for(server, scaffold="rap", rap_depth=1, rap_iterations=3).decide(view)
    asked = predictions(server)
    assert "it is your turn again" in asked["Open the left door"]
    assert "Next, Player 2 will act" in asked["Open the middle door"]
    assert "This action ends the game" in asked["Open the right door"]
    assert all("the other players" not in text for text in asked.values())


def test_every_rap_call_row_records_its_choice_and_values():
    with scripted_openai_server(ScriptedWorld()) as server:
        decision = agent_for(server, scaffold="rap", rap_depth=1, rap_iterations=3).decide(three_way_view())
    by_purpose = {}
    for call in decision.calls:
        by_purpose.setdefault(call.purpose, []).append(call)
    (choose,) = by_purpose["rap-action"]
    assert choose.parsed_action == "middle" and choose.details["probabilities"]["Open the middle door"] > 0.5
    assert {c.parsed_action for c in by_purpose["rap-evaluate"]} == {"left", "middle", "right"}
    assert all(0 <= c.details["p_yes"] <= 1 and "reward" in c.details for c in by_purpose["rap-evaluate"])
    assert all(c.parsed_action and c.details["predicted_actions"] for c in by_purpose["rap-predict"])
    assert all("p_yes" in c.details for c in by_purpose["rap-win"])
    assert all(c.parsed_action in ("yes", "no") for c in by_purpose["rap-win"][:-1])
    last = decision.calls[-1]  # also where the search's result is written
    assert last.parsed_action == decision.action_id == "middle"
    assert last.details["chosen"] == "Open the middle door"
    visits = {row["action"]: row["visits"] for row in last.details["root"]}
    assert sum(visits.values()) == 3 and visits["Open the middle door"] >= 1
    assert all(call.parsed_action for call in decision.calls)  # no RAP row is left without what it read


@pytest.fixture
def santorini_moving():
    """A Santorini position where seat 0 is to move a worker (placements done)."""
    state = create_game("santorini").new_initial_state(3)
    while not any(a.id.startswith("move") for a in state.legal_actions(state.current_seats()[0])):
        seat = state.current_seats()[0]
        state.apply_action(seat, state.legal_actions(seat)[0].id)
    return state


def test_in_santorini_a_move_is_followed_by_the_same_players_build(santorini_moving):
    seat = santorini_moving.current_seats()[0]
    view = turn_view(santorini_moving.seat_view(seat, with_next_actors=True), 1)
    assert view.next_actors and set(view.next_actors) <= {a.id for a in view.legal_actions}
    moves = [a.id for a in view.legal_actions if a.id.startswith("move")]
    assert moves and all(view.next_actors[m] in ("you", "nobody: the game ends") for m in moves)
    assert turn_view(santorini_moving.seat_view(seat), 1).next_actors == {}  # opt-in only


@pytest.mark.django_db
def test_the_values_are_stored_with_the_call_and_shown_in_its_transcript(client):
    from agents_app.agents.base import ModelCall
    from agents_app.models import AgentCall
    from agents_app.selectors import transcript_lines
    from agents_app.services import record_calls
    from gameplay.writes import services
    from gameplay.writes.services import SeatController

    match = services.create_match("santorini", [SeatController("human"), SeatController("human")], seed=1)
    call = ModelCall("rap-evaluate", [], raw_reply="Yes", parsed_action="move-a", details={"p_yes": 0.82})
    record_calls(match_id=match.pk, event=None, seat=0, agent_name="rapper", version=0, calls=[call], fallback=False)
    stored = AgentCall.objects.get(match=match)
    assert (stored.parsed_action, stored.details) == ("move-a", {"p_yes": 0.82})
    assert '"details": {"p_yes": 0.82}' in "".join(transcript_lines(match))
    assert '"p_yes": 0.82' in stored.details_text
