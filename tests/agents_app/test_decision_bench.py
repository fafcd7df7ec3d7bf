"""The decision bench (agents_app.evaluations.decision_bench): an agent's decisions on the engine alone, for every
registered game, with the other seats played by random moves or their text actions' example texts."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command

from agents_app.agents.base import Agent, Decision
from agents_app.agents.llm import LLMAgent, LLMAgentSettings
from agents_app.evaluations.decision_bench import FALLBACK, VALID, percentile, play_decisions
from gameplay.engines.registry import GAMES
from tests.agents_app.llm_match_support import legal_reply
from tests.support.openai_server import scripted_openai_server

DECISIONS = 3


@pytest.fixture(scope="module")
def legal_model():
    with scripted_openai_server(legal_reply) as server:
        yield server


def llm_agent(base_url: str) -> LLMAgent:
    # The schema format: the scripted model reads the legal ids from the request's enum.
    settings = LLMAgentSettings(name="bench", base_url=base_url, model="scripted", api_key_env="",
                                reply_format="schema", retries=1, http_retries=0, timeout_s=10)
    return LLMAgent(settings)


def test_every_registered_game_is_fifteen():
    assert len(GAMES) == 15  # the parametrised test below covers them all


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_model_answering_legal_ids_plays_decisions_of_every_game(legal_model, game_id):
    asked = len(legal_model.requests)
    run = play_decisions(llm_agent(legal_model.base_url), game_id, DECISIONS, seed=1)
    summary = run.summary()
    assert summary["decisions"] == DECISIONS and run.matches >= 1
    assert len(legal_model.requests) > asked  # every decision asked the model
    assert all(r.calls >= 1 and r.largest_prompt_tokens for r in run.records)
    assert summary["valid"] + summary["corrected"] + summary["fallback"] == pytest.approx(1.0)
    if game_id != "codenames":  # a clue is "word,number": the stock sentence is refused, and the agent falls back
        assert summary["valid"] == 1.0, [r.reason for r in run.records]
    assert summary["think_s_median"] <= summary["think_s_p95"] <= summary["think_s_max"]
    assert summary["largest_prompt_tokens"] == max(r.largest_prompt_tokens for r in run.records)


class Scripted(Agent):
    """An agent without a model: plays the first legal action, or an illegal id when told to."""

    name = "scripted"

    def __init__(self, illegal: bool = False):
        self.illegal = illegal

    def decide(self, view):
        if self.illegal:
            return Decision(action_id="no-such-move")
        return Decision(action_id=view.legal_actions[0].id)


def test_matches_follow_one_another_until_enough_decisions():
    run = play_decisions(Scripted(), "santorini", 40, seed=3)
    assert len(run.records) == 40 and run.matches >= 2
    assert {r.outcome for r in run.records} == {VALID}
    assert run.summary()["largest_prompt_tokens"] is None  # no model, no prompt counted


def test_a_move_the_engine_refuses_is_a_fallback_and_the_match_goes_on():
    run = play_decisions(Scripted(illegal=True), "santorini", 6, seed=3)
    assert [r.outcome for r in run.records] == [FALLBACK] * 6
    assert "refused by the engine" in run.records[0].reason


def test_the_nearest_rank_percentile():
    assert percentile([0.1, 0.2, 0.3, 0.4, 5.0], 95) == 5.0  # with few decisions, p95 is the slowest
    assert percentile([0.1, 0.2, 0.3, 0.4, 5.0], 50) == 0.3
    assert percentile(list(range(1, 101)), 95) == 95


def test_bench_agent_prints_p95_and_the_largest_prompt(legal_model):
    out = io.StringIO()
    call_command("bench_agent", "--base-url", legal_model.base_url, "--model", "scripted", "--game", "hive",
                 "--decisions", "3", "--no-probe", "--reply-format", "schema", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "hive / base / scripted: 3 decisions" in text and "valid 100%" in text
    assert re.search(r"think time: median [\d.]+ s, p95 [\d.]+ s, max [\d.]+ s", text)
    assert re.search(r"largest prompt: \d+ tokens", text)
    out = io.StringIO()
    call_command("bench_agent", "--base-url", legal_model.base_url, "--model", "scripted", "--game", "fruit_trading",
                 "--decisions", "2", "--no-probe", "--reply-format", "schema", "--json", stdout=out,
                 stderr=io.StringIO())
    result = json.loads(out.getvalue())
    assert result["decisions"] == 2 and result["valid"] == 1.0 and result["largest_prompt_tokens"] > 0


def test_whole_matches_of_several_games_end_in_one_table_with_the_copied_and_first_listed_shares(legal_model):
    out = io.StringIO()
    call_command("bench_agent", "--base-url", legal_model.base_url, "--model", "scripted", "--game",
                 "santorini,meeting_scheduling", "--matches", "1", "--no-probe", "--reply-format", "schema",
                 stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "moves copied from a suggestion: 0%, the first listed: " in text
    table = text.split("\n\n")[-1].splitlines()
    assert table[0].split(" | ")[0].strip() == "game" and "copied" in table[0] and "first listed" in table[0]
    rows = {line.split(" | ")[0].strip(): [c.strip() for c in line.split(" | ")] for line in table[2:]}
    assert set(rows) == {"santorini", "meeting_scheduling"}
    assert all(row[8] == "0%" for row in rows.values())  # nothing suggested: nothing copied
    run = play_decisions(llm_agent(legal_model.base_url), "santorini", 0, seed=2, matches=1)
    assert run.matches == 1 and len(run.records) > 3  # every decision of one whole match
    assert run.summary()["copied_suggestion"] == 0.0 and run.summary()["first_listed"] is not None
