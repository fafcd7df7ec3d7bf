"""An agent's prompts depend on its seat's information only, including what could be *derived* from the full state.

Looking for secret strings (test_prompt_leaks.py) cannot see a derived leak: a hint such as "after this guess it is
your turn again" carries no secret word, yet tells a Codenames Operative that the card is its own agent. So these tests
build *twin* matches: two states that look exactly the same to the agent's seat (same observation, same legal and text
actions) but differ in what the seat may not know (the Codenames key; who the Who is Spy spy is). The agent is a RAP
language model with every prompt option on (vision, history, chat, rule explanations, deep search), played by the
platform's own agent task against a scripted OpenAI-compatible server. Whatever it is asked must be the same in both
twins, word for word; any difference is information the seat should not have.

A positive control shows the comparison catches such a leak: a view that adds the engine's next actor after each action
in a hidden-information game differs between the twins.
"""

from __future__ import annotations

import pytest

from agents_app.models import AgentCall
from agents_app.tasks import play_agent_turns
from gameplay.models import Match
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm.rap_support import ScriptedWorld
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401 (eager_celery: a fixture)
from tests.agents_app.twins_support import codenames_twins, spy_twins
from tests.support.openai_server import scripted_openai_server

pytestmark = pytest.mark.django_db

# Every prompt option on: the deepest search the tests can afford, the picture, the move history, chat, explanations.
RAP_EVERYTHING = {"scaffold": "rap", "rap_depth": 3, "rap_iterations": 6, "vision": True, "history_moves": 20,
                  "chat_replies": 2, "explain_limit": 3}


def looks_the_same(one, other, seat: int) -> None:
    """The twins' precondition: the seat cannot tell them apart."""
    a, b = one.observation(seat), other.observation(seat)
    assert a.text == b.text and a.data == b.data
    assert [x.id for x in one.legal_actions(seat)] == [x.id for x in other.legal_actions(seat)]
    assert [x.label for x in one.legal_actions(seat)] == [x.label for x in other.legal_actions(seat)]
    assert one.current_seats() == other.current_seats()


def prompts_of(game_id: str, options: dict, num_seats: int, state, seat: int, server) -> list:
    """Everything the RAP agent at ``seat`` asks the model for its decision in a match standing at ``state``."""
    name = f"rap-everything-{seat}"
    if not AgentCall.objects.model._meta.apps.get_model("agents_app", "AgentConfig").objects.filter(name=name).exists():
        llm_config(name, server.base_url, **RAP_EVERYTHING)
    controllers = [SeatController("agent", agent_name=name) if s == seat else SeatController("human")
                   for s in range(num_seats)]
    match = services.create_match(game_id, controllers, seed=state.seed, options=options, host_seat=None,
                                  schedule_agents=False)
    Match.objects.filter(pk=match.pk).update(state=state.to_json())  # the position under test (no moves logged)
    play_agent_turns(match.pk)
    calls = AgentCall.objects.filter(match=match).order_by("version", "seq")
    assert calls.exists(), "the agent asked the model nothing"
    return [(call.purpose, call.request_messages) for call in calls]


@pytest.mark.parametrize("twins", [codenames_twins, spy_twins], ids=["codenames-operative", "who-is-spy-last-voter"])
def test_a_rap_agent_is_asked_the_same_in_states_its_seat_cannot_tell_apart(twins, eager_celery):  # noqa: F811
    game, state, twin, seat = twins()
    looks_the_same(state, twin, seat)
    assert state.to_json()["payload"] != twin.to_json()["payload"]
    with scripted_openai_server(ScriptedWorld()) as server:
        asked = prompts_of(game.spec.id, dict(game.options), game.num_seats, state, seat, server)
        asked_twin = prompts_of(game.spec.id, dict(game.options), game.num_seats, twin, seat, server)
    assert any(purpose == "rap-predict" for purpose, _ in asked), "the search never asked what comes next"
    assert asked == asked_twin, "the agent's prompts differ between states its seat cannot tell apart"


def test_the_twin_comparison_catches_a_next_actor_hint_that_reads_the_full_state():
    """Positive control: who acts after each action, worked out on the full state of a hidden-information game (what
    the platform used to hand RAP agents), differs between the Codenames twins: the comparison above would fail."""
    _, state, twin, seat = codenames_twins()

    def full_state_hint(s):
        found = {}
        for action in s.legal_actions(seat):
            trial = s.clone()
            trial.apply_action(seat, action.id)
            found[action.id] = "end" if trial.is_terminal() else tuple(trial.current_seats())
        return found

    looks_the_same(state, twin, seat)
    assert full_state_hint(state) != full_state_hint(twin)
