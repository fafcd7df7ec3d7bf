"""95% confidence intervals across seeds (issue 40): a Student t-interval of the mean over seeds, printed beside
the means by solve_dialogue and bench_dialogue_solver (NashConv, the seats' values, the CFR gain over solver seeds)
and by gnomes_eval (its means over evaluation seeds; the success rate keeps its Wilson interval)."""

from __future__ import annotations

import io
import json
import math

import pytest
from django.core.management import call_command
from scipy import stats

from agents_app.agents.gnomes.evaluation import RoundResult, summarise
from agents_app.agents.intervals import METHOD, cluster_mean_ci95, describe, mean_ci95
from agents_app.models import SolverRun
from gameplay.engines import registry
from tests.agents_app.dialogue_sampling_support import sampling_model
from tests.agents_app.llm_match_support import llm_config
from tests.support.openai_server import ScriptedReply, scripted_openai_server
from tests.support.tiny_dialogue import TinyDialogueGame


@pytest.fixture
def tiny_game(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "tiny_dialogue", TinyDialogueGame)
    return "tiny_dialogue"


def accepting_model(body):
    """Accepts a standing proposal, else proposes or talks as ``sampling_model`` samples: deals happen, so the
    seats' values spread over the scenarios the solve seeds draw."""
    if "- accept: " in body["messages"][-1]["content"]:
        return ScriptedReply.text({"move": "accept", "message": "Deal."})
    return sampling_model(body)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_the_interval_is_students_t_over_the_seeds():
    values = [0.12, 0.30, 0.05, 0.21]
    ci = mean_ci95(values)
    low, high = stats.t.interval(0.95, len(values) - 1, loc=sum(values) / 4, scale=stats.sem(values))
    assert (ci.mean, ci.low, ci.high, ci.n) == (pytest.approx(0.17), pytest.approx(low), pytest.approx(high), 4)
    assert mean_ci95([0.4]).low is None and "no interval: 1 seed" in mean_ci95([0.4]).text()
    assert mean_ci95([2.0, 2.0, 2.0]).as_dict() == {"mean": 2.0, "ci95": [2.0, 2.0], "n": 3}
    assert describe(ci.as_dict(), ".2f") == f"0.17 [{low:.2f}, {high:.2f}]"


def test_with_several_values_per_seed_the_seeds_stay_the_draws():
    # The same number of values per seed: exactly the t-interval of the seeds' means.
    equal = cluster_mean_ci95([[1, 3], [4, 4], [9, 7]])
    of_means = mean_ci95([2, 4, 8])
    assert (equal.mean, equal.low, equal.high) == pytest.approx((of_means.mean, of_means.low, of_means.high))
    # Unequal numbers: centred on the mean of all values, the error still from the seeds (cluster-robust, k - 1 df).
    unequal = cluster_mean_ci95([[1, 3, 5], [4], [], [8, 6]])
    assert unequal.mean == 4.5 and unequal.n == 4  # 27 / 6 values
    residuals = [(9 - 4.5 * 3) / 1.5, (4 - 4.5) / 1.5, 0.0, (14 - 4.5 * 2) / 1.5]  # per seed, 1.5 values a seed
    half = stats.t.ppf(0.975, 3) * math.sqrt(sum(r * r for r in residuals) / 12)
    assert (unequal.low, unequal.high) == pytest.approx((4.5 - half, 4.5 + half))


@pytest.mark.django_db
def test_solve_dialogue_over_several_seeds_prints_each_mean_beside_its_interval(tiny_game):
    with scripted_openai_server(accepting_model) as server:
        llm_config("solver-model", server.base_url, temperature=0.7)
        args = ("solve_dialogue", "--game", tiny_game, "--agent", "solver-model", "--depth", "2", "--iterations",
                "20", "--llm-seeds", "1", "--seed", "4", "--seeds", "3")
        text = run(*args)
        data = json.loads(run(*args, "--json"))  # the same solves, from the cache
    runs = list(SolverRun.objects.order_by("id"))[:3]
    assert [r.seed for r in runs] == [4, 5, 6]
    nash_conv = mean_ci95([r.result["nash_conv"] for r in runs])
    values = [mean_ci95([r.result["values"][seat] for r in runs]) for seat in range(2)]
    gain = mean_ci95([r.result["cfr_gain"]["mean"] for r in runs])
    assert len({tuple(r.result["values"]) for r in runs}) > 1  # the seeds drew other scenarios: a real spread
    assert f"across 3 solver seeds (4, 5, 6); {METHOD}:" in text
    assert f"  NashConv: {nash_conv.text('.6f')}" in text
    assert f"  value Player 1: {values[0].text('.6f')}" in text and f"  value Player 2: {values[1].text('.6f')}" in text
    assert f"  CFR gain (mean of the seats): {gain.text('.6f')}" in text
    summary = data["summary"]
    assert [r["seed"] for r in data["runs"]] == [4, 5, 6] and summary["method"] == METHOD
    assert summary["nash_conv"] == nash_conv.as_dict() and summary["values"] == [v.as_dict() for v in values]


def test_bench_dialogue_solver_over_several_seeds_gives_intervals_per_depth(tiny_game):
    args = ("bench_dialogue_solver", "--game", tiny_game, "--depths", "1", "--iterations", "10", "--seeds", "3",
            "--llm-seeds", "1")
    data = json.loads(run(*args, "--json"))
    rows = data["rows"]
    assert [row["seed"] for row in rows] == [0, 1, 2]
    nash_conv = mean_ci95([row["nash_conv"] for row in rows])
    values = [mean_ci95([row["values"][seat] for row in rows]) for seat in range(2)]
    assert data["summary"]["1"]["nash_conv"] == nash_conv.as_dict()
    text = run(*args)
    assert (f"depth 1, 3 seeds ({METHOD}): NashConv {nash_conv.text()}; values Player 1 {values[0].text()}, "
            f"Player 2 {values[1].text()}") in text


def result(seed: int, round_number: int, turns: int, agent_lines: int) -> RoundResult:
    return RoundResult(round_number, seed, turns, turns < 200, 0, 200, {"agent": agent_lines, "partner": 1}, [2.0])


def test_gnomes_summaries_give_each_mean_an_interval_across_seeds_counting_a_seed_once():
    # Two rounds per seed: a seed's value is the mean of its rounds (seed 0: 20, seed 1: 40, seed 2: 105).
    results = [result(0, 1, 10, 1), result(0, 2, 30, 3), result(1, 1, 40, 0), result(1, 2, 40, 2),
               result(2, 1, 10, 1), result(2, 2, 200, 1)]
    summary = summarise(results)
    turns = mean_ci95([20, 40, 105])
    assert summary["seeds"] == 3 and summary["mean_turns"] == pytest.approx(turns.mean, abs=0.01)
    assert summary["ci95"]["mean_turns"] == [round(turns.low, 2), round(turns.high, 2)]
    agent = mean_ci95([2, 1, 1])
    assert summary["ci95"]["mean_messages_agent"] == [round(agent.low, 2), round(agent.high, 2)]
    # Seed 2's capped round is not a finished one: 5 finished rounds, mean 26, interval from the 3 seeds.
    finished = cluster_mean_ci95([[10, 30], [40, 40], [10]])
    assert summary["mean_turns_finished"] == 26 and finished.mean == 26
    assert summary["ci95"]["mean_turns_finished"] == [round(finished.low, 2), round(finished.high, 2)]
    assert summary["ci95"]["mean_think_ms"] == [2.0, 2.0]  # every decision took 2 ms: no spread
    assert summarise(results[:2])["ci95"]["mean_turns"] == [None, None]  # one seed: no interval


def test_gnomes_eval_prints_the_intervals_beside_its_means():
    args = ("gnomes_eval", "--ego", "mute", "--seeds", "2", "--rounds", "1", "--budget", "20", "--workers", "1")
    report = json.loads(run(*args, "--json"))
    overall = report["overall"]
    low, high = overall["ci95"]["mean_turns"]
    assert low <= overall["mean_turns"] <= high and not math.isnan(low)
    assert "t-interval" in report["note"]
    text = run(*args)
    assert "turns (95% CI)" in text and f"{overall['mean_turns']:.1f} [{low:.1f}-{high:.1f}]" in text
