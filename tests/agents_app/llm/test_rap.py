"""The RAP scaffold: Monte Carlo tree search whose rewards come from scripted token log-probabilities."""

from __future__ import annotations

import math
from collections import Counter

from agents_app.agents.llm.client import TokenChoice
from agents_app.agents.llm.rap import NO_LOGPROBS_REASON, number_probabilities, yes_probability
from tests.agents_app.llm import agent_for, clue_view, last_user_text, santorini_view, three_way_view
from tests.agents_app.llm.rap_support import ScriptedWorld, answer
from tests.support.openai_server import ScriptedReply, scripted_openai_server

PURPOSES = ("rap-options", "rap-action", "rap-evaluate", "rap-predict", "rap-win")


def purposes(decision) -> Counter:
    return Counter(call.purpose for call in decision.calls)


# --- reading log-probabilities ------------------------------------------------------------------------------------


def test_number_and_yes_probabilities_come_from_the_first_matching_token():
    tokens = [
        TokenChoice("The", -0.1, {"The": -0.1}),
        TokenChoice(" 2", -0.3, {" 2": -0.3, "1.": -1.5, "Yes": -4.0}),
    ]
    assert number_probabilities(tokens, 3) == [math.exp(-1.5), math.exp(-0.3), 0.0]
    assert yes_probability(tokens) == 1.0  # "Yes" is offered at the second token and "no" nowhere
    both = [TokenChoice("yes", math.log(0.6), {"yes": math.log(0.6), " No": math.log(0.2), "YES": math.log(0.2)})]
    assert abs(yes_probability(both) - 0.8) < 1e-9
    assert yes_probability(None) == 0.5 and number_probabilities(None, 2) == [0.0, 0.0]


# --- the search ---------------------------------------------------------------------------------------------------


def test_a_search_with_scripted_logprobs_plays_the_favoured_action():
    world = ScriptedWorld()
    with scripted_openai_server(world) as server:
        decision = agent_for(server, scaffold="rap", rap_depth=1, rap_iterations=3).decide(three_way_view())
    assert decision.fallback_reason is None and decision.action_id == "middle"  # number 2 is the likeliest
    # One choice over the three doors, one self-evaluation each, then each door predicted and judged once.
    assert purposes(decision) == {"rap-action": 1, "rap-evaluate": 3, "rap-predict": 3, "rap-win": 3}
    assert len(server.requests) == len(decision.calls) == 10
    choice_requests = [r.body for r in server.requests if "associated number" in last_user_text(r.body)]
    assert all(body["logprobs"] is True and body["top_logprobs"] == 5 for body in choice_requests)
    listing = "1. Open the left door\n2. Open the middle door\n3. Open the right door"
    assert listing in choice_requests[0]["messages"][1]["content"]
    assert all(call.purpose in PURPOSES and call.error == "" for call in decision.calls)


class DislikesTheMiddleDoor(ScriptedWorld):
    def __call__(self, body: dict) -> ScriptedReply:
        if "Is this a good action?" in last_user_text(body) and "middle" in str(body["messages"][-2]["content"]):
            return answer("No", ("No", -0.1), ("Yes", -2.4))
        return super().__call__(body)


def test_the_self_evaluation_can_overrule_the_first_choice():
    with scripted_openai_server(DislikesTheMiddleDoor()) as server:
        decision = agent_for(server, scaffold="rap", rap_depth=1, rap_iterations=6).decide(three_way_view())
    assert decision.action_id == "left" and decision.fallback_reason is None


def test_more_iterations_reuse_what_the_tree_already_knows():
    world = ScriptedWorld()
    with scripted_openai_server(world) as server:
        decision = agent_for(server, scaffold="rap", rap_depth=1, rap_iterations=6).decide(three_way_view())
    # Iterations 4-6 revisit known nodes: no new questions, and the favoured door gains the visits.
    assert len(decision.calls) == 10 and decision.action_id == "middle"


def test_the_depth_limit_bounds_the_predictions():
    world = ScriptedWorld(predicted_actions=("Open another door", "Stay"))
    with scripted_openai_server(world) as server:
        decision = agent_for(server, scaffold="rap", rap_depth=2, rap_iterations=1).decide(three_way_view())
    # Root: choose + 3 evaluations; its best child: predicted, then choose + 2 evaluations; grandchild at the
    # depth limit: predicted and judged, never expanded.
    assert purposes(decision) == {"rap-action": 2, "rap-evaluate": 5, "rap-predict": 2, "rap-win": 1}
    predicted_state_prompts = [r for r in server.requests if "<state>\nOne door is open.\n</state>" in r.prompt_text]
    assert len(predicted_state_prompts) == 5  # the child's choice, 2 evaluations, the grandchild's prediction, win
    assert decision.action_id in {"left", "middle", "right"}


def test_iterations_bound_the_search():
    world = ScriptedWorld()
    with scripted_openai_server(world) as server:
        two = agent_for(server, scaffold="rap", rap_depth=3, rap_iterations=2).decide(three_way_view())
    # Two iterations reach the depth limit twice: two leaves judged, at most 3 predictions per path.
    assert purposes(two)["rap-win"] == 2 and purposes(two)["rap-predict"] <= 2 * 3


def test_open_ended_actions_become_options_first():
    world = ScriptedWorld()
    with scripted_openai_server(world) as server:
        agent = agent_for(server, scaffold="rap", rap_depth=1, rap_iterations=3)
        decision = agent.decide(clue_view())
    assert decision.calls[0].purpose == "rap-options" and decision.fallback_reason is None
    choice = next(r for r in server.requests if "associated number" in last_user_text(r.body))
    assert "2. Give a clue: river,2\n3. Give a clue: stone,1\n</actions>" in choice.prompt_text
    assert "far too long" not in choice.prompt_text  # longer than the action's 20 characters
    assert (decision.action_id, decision.text) == ("clue", "river,2")


def test_without_logprobs_rap_falls_back_with_a_clear_reason():
    view = three_way_view()
    with scripted_openai_server(ScriptedWorld(logprobs=False)) as server:
        decision = agent_for(server, scaffold="rap").decide(view)
    assert decision.fallback_reason == NO_LOGPROBS_REASON
    assert decision.fallback_reason.startswith("endpoint gives no logprobs")
    assert len(server.requests) == 1 and decision.calls[0].error == NO_LOGPROBS_REASON
    assert decision.action_id in {a.id for a in view.legal_actions}


def test_a_single_option_needs_no_search():
    view = santorini_view()
    view = type(view)(**{**view.__dict__, "legal_actions": view.legal_actions[:1]})
    with scripted_openai_server([]) as server:
        decision = agent_for(server, scaffold="rap").decide(view)
    assert decision.action_id == view.legal_actions[0].id and decision.calls == () and server.requests == []
