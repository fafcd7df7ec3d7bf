"""The Gnomes planning agents: information discipline, the hidden information dictionary, flag exchange."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from agents_app.agents import registry
from agents_app.agents.base import TurnView
from agents_app.agents.gnomes import comm_agent as comm_module
from agents_app.agents.gnomes.belief import partner_knowledge, treasure_belief, wall_probabilities
from agents_app.agents.gnomes.comm_agent import GnomesCommAgent, partner_lines_since_my_move
from agents_app.agents.gnomes.evaluation import decision_seed, play_round, view_for
from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import RuleBasedParser
from agents_app.agents.gnomes.messages import cannot, suggest
from agents_app.agents.gnomes.mute_agent import GnomesMuteAgent
from agents_app.agents.gnomes.partner import SimulatedPartner
from gameplay.engines.gnomes import GnomesGame
from gameplay.engines.gnomes import game as game_module
from gameplay.engines.gnomes import layouts as layouts_module
from gameplay.engines.gnomes.layouts import RoundSpec
from gameplay.engines.gnomes.maze import Maze, wall_between
from tests.support.openai_server import ScriptedReply, scripted_openai_server

AGENT_DIR = Path(__file__).resolve().parents[3] / "agents_app" / "agents" / "gnomes"
AGENT_MODULES = (
    "belief",
    "worlds",
    "planner",
    "select",
    "deliberation",
    "comm_agent",
    "mute_agent",
    "partner",
    "partner_beliefs",
    "conversation",
)
SMALL = {"budget": 60, "worlds": 8}
PARSE = RuleBasedParser().parse


def play(state, moves):
    """Apply (seat, action, message) triples; the message is posted after the move, as the platform does."""
    for seat, action, message in moves:
        state.apply_action(seat, action)
        if message:
            state.record_message(seat, message)
    return state


def ego_view(state, seed=11) -> TurnView:
    assert state.current_seats() == [1]
    return view_for(state, 1, seed)


# --- information discipline ----------------------------------------------------------------------------------


def test_agent_modules_do_not_import_the_layouts_the_engine_or_fixtures():
    forbidden = ("gameplay.engines.gnomes.layouts", "gameplay.engines.gnomes.game", "fixtures")
    for name in AGENT_MODULES:
        tree = ast.parse((AGENT_DIR / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                targets = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                # "from gameplay.engines.gnomes import X" would run the package and hand over the engine.
                assert node.module != "gameplay.engines.gnomes", f"{name} imports the engine package"
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                assert not target.startswith(forbidden), f"{name} imports {target}"
        assert "mazes.json" not in (AGENT_DIR / f"{name}.py").read_text()


def _round1_script():
    """A few turns of round 1 (the treasure is on the partner's side): moves, a blocked move and chat."""
    return [
        (0, "right", "Go down"),
        (1, "down", "Can you move right?"),
        (0, "stay", "I can't go right, there's a wall"),
        (1, "right", None),
        (0, "up", "Go right"),
    ]


def _hidden_swap(original, touched_edges):
    """The same layouts with every side-0 wall the script did not touch flipped and round 1's treasure moved."""
    interior = set(Maze(original.size, ()).interior_walls())
    side0 = original.walls[0]
    kept = side0 & touched_edges
    flipped = (interior - touched_edges) - side0
    rounds = list(original.rounds)
    rounds[0] = RoundSpec(1, (8, 8), rounds[0].seen_by)
    assert rounds[0].treasure != original.rounds[0].treasure
    return dataclasses.replace(original, walls=(frozenset(kept | flipped), original.walls[1]), rounds=tuple(rounds))


@pytest.mark.parametrize("agent_class", [GnomesCommAgent, GnomesMuteAgent])
def test_decisions_ignore_the_partners_hidden_walls_and_the_hidden_treasure(agent_class, monkeypatch):
    script = _round1_script()
    real = play(GnomesGame(options={"round": 1}).new_initial_state(0), script)
    view = ego_view(real)
    decision = agent_class(**SMALL).decide(view)

    touched = {edge for entry in real.history if (edge := wall_between(tuple(entry["from"]), entry["action"]))}
    altered = _hidden_swap(layouts_module.default_layouts(), touched)
    monkeypatch.setattr(layouts_module, "default_layouts", lambda: altered)
    monkeypatch.setattr(game_module, "default_layouts", lambda: altered)
    other = play(GnomesGame(options={"round": 1}).new_initial_state(0), script)

    # What the partner sees differs a lot, what the agent sees does not differ at all ...
    assert other.observation(0).data["walls"] != real.observation(0).data["walls"]
    assert other.observation(0).data["treasure"] != real.observation(0).data["treasure"]
    assert other.observation(1).data == real.observation(1).data
    # ... and so the decision is the same, message included.
    assert agent_class(**SMALL).decide(ego_view(other)) == decision


def test_the_communicating_agent_never_names_a_treasure_it_cannot_see():
    state = play(GnomesGame(options={"round": 3}).new_initial_state(0), [(0, "right", "Where is the treasure?")])
    view = ego_view(state)
    assert view.observation.data["treasure"] is None
    message = GnomesCommAgent(**SMALL).decide(view).message
    assert message and "treasure" in message.lower()
    assert not re.search(r"\d", message)  # no coordinates at all, let alone sampled ones
    for number in (1, 3, 5):  # every round where the treasure is on the partner's side
        result_messages = _agent_messages(number)
        assert result_messages
        assert not any(re.search(r"column|row|\d", text) for text in result_messages)


def _agent_messages(round_number: int) -> list[str]:
    state = GnomesGame(options={"round": round_number, "turn_cap": 30}).new_initial_state(0)
    agents = {0: SimulatedPartner(), 1: GnomesCommAgent(**SMALL)}
    while not state.is_terminal():
        seat = state.current_seats()[0]
        decision = agents[seat].decide(view_for(state, seat, decision_seed(0, round_number, state.turn, seat)))
        state.apply_action(seat, decision.action_id)
        if decision.message and not state.is_terminal():
            state.record_message(seat, decision.message)
    return [m["text"] for m in state.chat if m["seat"] == 1]


# --- the hidden information dictionary ---------------------------------------------------------------------


def test_a_rejected_suggestion_enters_the_dictionary_at_the_cell_it_was_made():
    state = play(
        GnomesGame(options={"round": 2}).new_initial_state(0),
        [(0, "down", None), (1, "right", suggest(Flag.DOWN)), (0, "stay", "I can't go down, there's a wall")],
    )
    data = state.observation(1).data
    knowledge = partner_knowledge(data, 1, PARSE)
    asked_at = (1, 1)  # the token after the agent's move, where the partner was asked to go down
    assert [s.cell for s in knowledge.suggestions] == [asked_at]
    assert "down" in knowledge.rejected[asked_at]
    assert "up" in knowledge.rejected[(1, 2)]  # the same wall, seen from below
    assert "1,1:down" in knowledge.assumed_walls()
    # The mute agent reads no chat, so it knows nothing of the rejection.
    assert partner_knowledge(data, 1, None).rejected == {}


def test_a_partner_move_that_left_the_token_says_nothing_by_default():
    # As in the testbed, the agent sees only that the token stayed: a stay or a wall, so no wall is inferred.
    state = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "right", None), (1, "stay", None)])
    state = play(state, [(0, "right", None), (1, "stay", None)])
    knowledge = partner_knowledge(state.observation(1).data, 1, None)
    assert "0,0:right" in knowledge.open_edges and "1,0:right" not in knowledge.wall_edges


def test_blocked_and_successful_partner_moves_are_walls_and_open_edges():
    # Side 0 has a wall right of (1, 0): the partner's attempt is blocked there (shown: partner_attempts on).
    game = GnomesGame(options={"round": 2, "partner_attempts": True})
    state = play(game.new_initial_state(0), [(0, "right", None), (1, "stay", None)])
    state = play(state, [(0, "right", None), (1, "stay", None)])
    knowledge = partner_knowledge(state.observation(1).data, 1, None)
    assert "0,0:right" in knowledge.open_edges
    assert "1,0:right" in knowledge.wall_edges and "right" in knowledge.rejected[(1, 0)]
    # Declined edges become likelier walls, known ones are left alone.
    chances = wall_probabilities(knowledge, 0.33)
    assert "0,0:right" not in chances and "1,0:right" not in chances
    assert chances["1,0:down"] > 0.33


def test_partner_hints_tilt_the_treasure_belief_and_visited_cells_are_ruled_out():
    state = play(GnomesGame(options={"round": 1}).new_initial_state(0), [(0, "right", "Go right")])
    data = state.observation(1).data
    knowledge = partner_knowledge(data, 1, PARSE)
    assert knowledge.hints == [((1, 0), Flag.RIGHT)]
    weights = treasure_belief(data, knowledge.hints)
    assert (0, 0) not in weights and (1, 0) not in weights
    assert weights[(5, 5)] > weights[(0, 5)]
    # Visible treasure: the belief is exact.
    own = GnomesGame(options={"round": 2}).new_initial_state(0).observation(1).data
    assert treasure_belief(own, []) == {tuple(own["treasure"]): 1.0}


# --- flag exchange through the communicating agent ----------------------------------------------------------


def test_a_question_gets_an_answer():
    state = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "down", "Which way can you go?")])
    decision = GnomesCommAgent(**SMALL).decide(ego_view(state))
    # The answer is about the agent's own side at the token: (0, 1) on side 1 is open right and up.
    assert decision.message.startswith("From here I can move right or up on my side.")


def test_a_requested_move_blocked_on_the_agents_side_gets_i_cannot():
    # Side 1 has a wall below (0, 1): asked to go down there, the agent says it cannot.
    state = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "down", "Go down")])
    assert "0,1:down" in state.observation(1).data["walls"]
    decision = GnomesCommAgent(**SMALL).decide(ego_view(state))
    assert decision.message == cannot("down")
    assert decision.action_id != "down"


def test_only_partner_lines_since_the_agents_last_move_form_the_input_flag():
    state = play(
        GnomesGame(options={"round": 2}).new_initial_state(0),
        [(0, "down", "Go up"), (1, "right", "Can you move up?"), (0, "up", "ok"), (1, "stay", None)],
    )
    state.apply_action(0, "stay")
    state.record_message(0, "Go left")
    assert partner_lines_since_my_move(state.observation(1).data, 1) == ["Go left"]


def test_the_comm_agent_does_not_repeat_a_request_the_partner_just_carried_out(monkeypatch):
    state = play(
        GnomesGame(options={"round": 2}).new_initial_state(0),
        [(0, "stay", None), (1, "down", suggest(Flag.RIGHT)), (0, "right", None)],
    )
    view = ego_view(state)

    def always_right(tree, problem, input_flag, rng):
        from agents_app.agents.gnomes.select import Selection

        return Selection("stay", Flag.RIGHT, Flag.RIGHT)

    monkeypatch.setattr("agents_app.agents.gnomes.deliberation.select_best_action", always_right)
    assert GnomesCommAgent(**SMALL).decide(view).message is None
    other = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "stay", None)])
    assert GnomesCommAgent(**SMALL).decide(ego_view(other)).message == suggest(Flag.RIGHT)


def test_the_llm_parser_is_used_when_configured_and_its_calls_come_with_the_decision(monkeypatch):
    monkeypatch.setattr(comm_module, "_parse_cache", {})
    state = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "down", "hello there")])
    with scripted_openai_server(["NONE"]) as server:
        agent = GnomesCommAgent(**SMALL, environ={"GNOMES_LLM_BASE_URL": server.base_url})
        decision = agent.decide(ego_view(state))
        again = GnomesCommAgent(**SMALL, environ={"GNOMES_LLM_BASE_URL": server.base_url}).decide(ego_view(state))
    (request,) = server.requests  # the line was parsed once; the next decision read it from the cache
    assert "hello there" in request.messages[-1]["content"]
    (call,) = decision.calls
    assert (call.purpose, call.raw_reply, call.parsed_action) == ("intent", "NONE", "NONE")
    assert again.calls == ()


def test_a_model_that_fails_leaves_the_rules_in_charge_and_the_failure_on_record(monkeypatch):
    monkeypatch.setattr(comm_module, "_parse_cache", {})
    state = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "down", "go left please")])
    with scripted_openai_server([ScriptedReply.error(500), ScriptedReply.error(500), "LEFT"]) as server:
        environ = {"GNOMES_LLM_BASE_URL": server.base_url}
        first = GnomesCommAgent(**SMALL, environ=environ, sleep=lambda s: None).decide(ego_view(state))
        second = GnomesCommAgent(**SMALL, environ=environ, sleep=lambda s: None).decide(ego_view(state))
    # One HTTP retry (the Gnomes default), then the rules parsed the line; that parse was not cached as the
    # model's, so the next decision asked the model again.
    assert [c.error for c in first.calls] == ["HTTP 500: scripted error", "HTTP 500: scripted error"]
    assert first.fallback_reason is None  # the planner still chose the move: not a random fallback
    assert [(c.raw_reply, c.parsed_action) for c in second.calls] == [("LEFT", "LEFT")]
    assert len(server.requests) == 3


# --- the mute agent, determinism, registry ------------------------------------------------------------------


def test_the_mute_agent_never_sends_a_message():
    state = play(GnomesGame(options={"round": 2}).new_initial_state(0), [(0, "down", "Where is the treasure? Go down")])
    assert GnomesMuteAgent(**SMALL).decide(ego_view(state)).message is None
    result = play_round(GnomesMuteAgent(**SMALL), SimulatedPartner(), round_number=4, seed=1)
    assert result.messages["agent"] == 0


@pytest.mark.parametrize("agent_class", [GnomesCommAgent, GnomesMuteAgent])
def test_a_full_round_with_the_simulated_partner_finishes(agent_class):
    result = play_round(agent_class(**SMALL), SimulatedPartner(), round_number=2, seed=0)
    assert 0 < result.turns <= 200
    assert result.found or result.turns == 200
    assert len(result.think_ms) == result.turns // 2


@pytest.mark.parametrize("agent_class", [GnomesCommAgent, GnomesMuteAgent])
def test_decisions_are_deterministic_for_a_seed_and_legal(agent_class):
    state = play(GnomesGame(options={"round": 1}).new_initial_state(0), _round1_script())
    view = ego_view(state, seed=5)
    decisions = {agent_class(**SMALL).decide(view) for _ in range(3)}
    assert len(decisions) == 1
    assert decisions.pop().action_id in {a.id for a in view.legal_actions}


@pytest.mark.parametrize("name", ["gnomes-comm", "gnomes-mute", "gnomes-partner"])
def test_registered_and_refusing_other_games(name):
    agent = registry.create_agent(name)
    assert agent.name == name and agent.description
    state = GnomesGame(options={"round": 2}).new_initial_state(0)
    view = dataclasses.replace(view_for(state, 0, 1), game_id="santorini")
    with pytest.raises(ValueError):
        agent.decide(view)
