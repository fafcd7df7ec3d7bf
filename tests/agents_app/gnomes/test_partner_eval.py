"""The simulated partner, the match runner and the gnomes_eval / bench_gnomes commands."""

from __future__ import annotations

import io
import json
import math
import random

import pytest
from django.core.management import call_command

from agents_app.agents.gnomes.evaluation import RoundResult, decision_seed, play_round, summarise, view_for
from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import RuleBasedParser
from agents_app.agents.gnomes.messages import cannot, suggest
from agents_app.agents.gnomes.mute_agent import GnomesMuteAgent
from agents_app.agents.gnomes.partner import SimulatedPartner
from agents_app.agents.gnomes.partner_beliefs import agent_walls
from agents_app.agents.gnomes.partner_speech import TemplateSpeech
from gameplay.engines.gnomes import GnomesGame

PARSE = RuleBasedParser().parse


def partner_view(state, seed=3):
    assert state.current_seats() == [0]
    return view_for(state, 0, seed)


def after(round_number, moves):
    state = GnomesGame(options={"round": round_number}).new_initial_state(0)
    for seat, action, message in moves:
        state.apply_action(seat, action)
        if message:
            state.record_message(seat, message)
    return state


# --- the partner's texts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("template", TemplateSpeech._HINTS)
@pytest.mark.parametrize("move", ["right", "up", "left", "down"])
def test_hints_read_as_the_move_they_name(template, move):
    text = template.format(move=move, bearing="further up and to the left")
    assert PARSE(text) == Flag.of_action(move)


@pytest.mark.parametrize("template", TemplateSpeech._REFUSALS)
def test_refusals_read_as_reject(template):
    assert PARSE(template.format(move="left")) == Flag.REJECT


def test_other_replies_read_as_intended():
    assert all(PARSE(text) == Flag.ACCEPT for text in TemplateSpeech._ACCEPTS)
    assert PARSE(TemplateSpeech._NO_TREASURE_HERE) == Flag.NONE


# --- the partner's behaviour ---------------------------------------------------------------------------------


def test_a_partner_that_sees_the_treasure_heads_for_it_and_gives_directions():
    state = GnomesGame(options={"round": 1}).new_initial_state(0)  # treasure (4, 0) on side 0
    decision = SimulatedPartner().decide(partner_view(state))
    assert decision.action_id in {"right", "stay", "down"}
    assert state.game.mazes[0].can_move((0, 0), decision.action_id)
    if decision.message:
        assert PARSE(decision.message).action in {"right", "up", "left", "down"}


def test_a_partner_without_the_treasure_follows_a_request_it_can_make():
    # Side 0 lets the token go right from (0, 0).
    state = after(2, [(0, "stay", None), (1, "stay", suggest(Flag.RIGHT))])
    decisions = [SimulatedPartner().decide(partner_view(state, seed)) for seed in range(10)]
    assert {d.action_id for d in decisions} == {"right"}
    assert all(d.message is None or PARSE(d.message) == Flag.ACCEPT for d in decisions)


def test_a_partner_refuses_a_request_its_walls_block_and_explores_instead():
    # Side 0 has a wall right of (1, 0).
    state = after(2, [(0, "right", None), (1, "stay", suggest(Flag.RIGHT))])
    decision = SimulatedPartner().decide(partner_view(state))
    assert PARSE(decision.message) == Flag.REJECT and "right" in decision.message
    assert decision.action_id != "right"
    assert state.game.mazes[0].can_move((1, 0), decision.action_id)


def test_a_partner_reads_a_stay_request_as_one():
    state = after(2, [(0, "stay", None), (1, "stay", suggest(Flag.STAY))])
    assert SimulatedPartner().decide(partner_view(state)).action_id == "stay"


def test_silence_after_a_carried_out_request_means_keep_going():
    # Asked to go down, the partner went down to (0, 1); the agent then said nothing. Exploring would pick
    # right or down at random (both unvisited); keeping the request goes down every time.
    state = after(2, [(0, "stay", None), (1, "stay", suggest(Flag.DOWN)), (0, "down", None), (1, "stay", None)])
    assert {SimulatedPartner().decide(partner_view(state, seed)).action_id for seed in range(10)} == {"down"}
    # A new request replaces the standing one.
    state = after(
        2, [(0, "stay", None), (1, "stay", suggest(Flag.DOWN)), (0, "down", None), (1, "stay", suggest(Flag.RIGHT))]
    )
    assert {SimulatedPartner().decide(partner_view(state, seed)).action_id for seed in range(10)} == {"right"}


def test_the_partner_learns_the_agents_walls_from_i_cannot_and_from_ignored_hints():
    state = after(1, [(0, "right", "Go down"), (1, "right", cannot("down"))])
    walls = agent_walls(state.observation(0).data, 0, PARSE)
    assert "1,0:down" in walls  # said at (1, 0), where the agent was deciding
    ignored = after(
        1,
        [(0, "stay", "Go down"), (1, "right", None), (0, "left", "Go down"), (1, "right", None)],
    )
    assert "0,0:down" in agent_walls(ignored.observation(0).data, 0, PARSE)


def test_the_partner_explores_unvisited_cells_first():
    state = after(2, [(0, "down", None), (1, "up", None)])  # (0, 1) visited; from (0, 0) only right is new
    choices = {SimulatedPartner().decide(partner_view(state, seed)).action_id for seed in range(10)}
    assert choices == {"right"}


def test_the_partner_is_deterministic_for_a_seed():
    state = after(1, [(0, "right", None), (1, "stay", None)])
    view = partner_view(state, 9)
    assert len({SimulatedPartner().decide(view) for _ in range(3)}) == 1


# --- the runner ----------------------------------------------------------------------------------------------


def test_play_round_reports_what_happened():
    result = play_round(GnomesMuteAgent(budget=40, worlds=8), SimulatedPartner(), round_number=1, seed=2)
    assert isinstance(result, RoundResult)
    assert result.round == 1 and result.seed == 2 and result.turn_cap == 200
    assert result.messages["agent"] == 0
    assert len(result.think_ms) == result.turns // 2 and all(ms > 0 for ms in result.think_ms)
    again = play_round(GnomesMuteAgent(budget=40, worlds=8), SimulatedPartner(), round_number=1, seed=2)
    assert (again.turns, again.found, again.messages) == (result.turns, result.found, result.messages)


def test_decision_seeds_depend_on_every_coordinate():
    seeds = {decision_seed(s, r, t, seat) for s in range(3) for r in range(1, 4) for t in range(3) for seat in (0, 1)}
    assert len(seeds) == 3 * 3 * 3 * 2


def test_summaries_count_the_turn_cap_for_failures():
    results = [
        RoundResult(1, 0, 10, True, 0, 200, {"agent": 2, "partner": 1}, [1.0, 3.0]),
        RoundResult(1, 1, 200, False, 1, 200, {"agent": 0, "partner": 4}, [2.0]),
    ]
    summary = summarise(results)
    assert summary["agent_per_partner_message"] == 0.4 and summary["repeated_agent_lines"] == 0
    assert summary["mean_turns"] == 105 and summary["success_rate"] == 0.5 and summary["failures"] == 1
    # The capped round is censored: counted, and the finished rounds' mean stands apart.
    assert summary["censored"] == 1 and summary["mean_turns_finished"] == 10
    # 1 of 2 with the Wilson interval, recomputed by hand: centre 0.5, half-width z*sqrt(p(1-p)/n + z²/4n²)/(1+z²/n).
    z = 1.959964
    half = z * math.sqrt(0.25 / 2 + z * z / 16) / (1 + z * z / 2)
    assert summary["success_ci95"] == [round(0.5 - half, 3), round(0.5 + half, 3)]
    assert summary["mean_messages_agent"] == 1 and summary["mean_messages_partner"] == 2.5
    assert summary["mean_think_ms"] == 2.0


# --- the commands ----------------------------------------------------------------------------------------------


STAT_KEYS = {
    "n",
    "agent_per_partner_message",
    "repeated_agent_lines",
    "mean_turns",
    "success_rate",
    "success_ci95",
    "failures",
    "censored",
    "mean_turns_finished",
    "mean_wall_hits",
    "mean_messages_agent",
    "mean_messages_partner",
    "mean_think_ms",
    "p95_think_ms",
    "seeds",
    "ci95",
}


def run_command(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_gnomes_eval_json_shape():
    args = ("--seeds", "1", "--rounds", "1", "--budget", "50", "--workers", "1", "--json")
    report = json.loads(run_command("gnomes_eval", "--ego", "comm", "--partner", "simulated", *args))
    assert set(report) >= {"ego", "seeds", "budget", "rounds", "overall"}
    assert (report["ego"], report["seeds"], report["budget"]) == ("comm", 1, 50)
    assert set(report["rounds"]) == {"1"}
    assert set(report["rounds"]["1"]) == STAT_KEYS and set(report["overall"]) == STAT_KEYS
    both = json.loads(run_command("gnomes_eval", "--ego", "both", *args))
    assert set(both["rounds"]["1"]) == {"comm", "mute", "fewer_turns"}
    assert set(both["overall"]["mute"]) == STAT_KEYS and both["overall"]["mute"]["mean_messages_agent"] == 0
    # The mute control is mute on both sides: chat is off, so the simulated partner's lines never arrive.
    assert both["chat"] == {"comm": "on", "mute": "off"} and both["overall"]["mute"]["mean_messages_partner"] == 0
    assert report["chat"] == {"comm": "on"}
    assert both["comm_fewer_turns_in_rounds"] in (0, 1)
    assert (report["partner"], report["seed_range"]) == ("template", [0, 0])


def test_gnomes_eval_plays_the_free_form_and_unreliable_partners_and_never_on_tuning_seeds():
    args = ("--ego", "comm", "--seeds", "2", "--rounds", "5", "--budget", "50", "--workers", "1", "--json")
    for partner in ("freeform", "unreliable"):
        report = json.loads(run_command("gnomes_eval", "--partner", partner, "--first-seed", "40", *args))
        assert (report["partner"], report["seed_range"]) == (partner, [40, 41])
        assert report["overall"]["mean_messages_partner"] > 0
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="tuning seeds"):
        run_command("gnomes_eval", "--first-seed", "999", *args)  # 999..1000 reaches the first tuning seed


def test_gnomes_eval_text_and_bad_rounds():
    text = run_command(
        "gnomes_eval", "--ego", "both", "--seeds", "1", "--rounds", "4", "--budget", "30", "--workers", "1"
    )
    assert "counts an unsuccessful round as the turn cap" in text and "fewer turns" in text
    assert "comm: chat on, mute: chat off" in text and "success (95% CI)" in text and "capped" in text
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        run_command("gnomes_eval", "--rounds", "7")


def test_bench_gnomes_prints_timings_and_environment():
    text = run_command("bench_gnomes", "--moves", "3", "--budget", "20")
    assert "iterations/s" in text and "p95" in text and "Python 3" in text and "CPUs" in text


def test_random_is_not_reseeded_globally():
    # Agents draw from their own seeded generators, never from the shared module-level one.
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    play_round(GnomesMuteAgent(budget=20, worlds=4), SimulatedPartner(), round_number=2, seed=0)
    assert random.random() == expected


def test_with_chat_off_neither_side_reads_a_line():
    """The mute control (issue 15, point 3): the simulated partner talks as always, but with chat off nothing it
    says reaches the state, so the agent cannot read its hints."""
    # Round 1: the treasure is on the partner's side, so it guides the agent with hints.
    result = play_round(GnomesMuteAgent(budget=20, worlds=4), SimulatedPartner(), round_number=1, seed=0, chat=False)
    assert result.messages == {"agent": 0, "partner": 0}
    talking = play_round(GnomesMuteAgent(budget=20, worlds=4), SimulatedPartner(), round_number=1, seed=0)
    assert talking.messages["partner"] > 0  # with chat on the same partner does talk
