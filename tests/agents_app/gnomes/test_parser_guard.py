"""The communicating agent's guard on its LLM intent parser (issue 22, point 5): the model's reading of every
partner line of the round is compared with the rule-based parser's; once six lines are in and they agree on fewer
than GNOMES_LLM_MIN_AGREEMENT of them (default 50%), the agent parses with the rules, logs it and notes it with
its move (the note reaches a study's rounds.csv, agent_notes)."""

from __future__ import annotations

import ast
import logging
import re

import pytest

from agents_app.agents.gnomes import comm_agent as comm_module
from agents_app.agents.gnomes.comm_agent import GnomesCommAgent
from agents_app.agents.gnomes.intents import RuleBasedParser
from agents_app.agents.gnomes.llm import DEFAULT_MIN_AGREEMENT, min_agreement_from_env
from agents_app.services import turn_view
from gameplay.engines.registry import create_game
from tests.support.openai_server import scripted_openai_server

LINES = ("go right", "please go up", "move left", "can you go down?", "go right please", "up")
_QUOTED = re.compile(r"Partner's message: (.*)$", re.DOTALL)


def says_none(body) -> str:
    return "NONE"  # a small model's habit: every line is NONE, which no reply check can catch


def reads_like_the_rules(body) -> str:
    text = ast.literal_eval(_QUOTED.match(body["messages"][-1]["content"]).group(1))
    return RuleBasedParser().parse(text).value


def view_after(lines: tuple[str, ...]):
    state = create_game("gnomes", {"round": 2, "first_seat": 1}).new_initial_state(4)
    for text in lines:
        state.record_message(0, text)
    return turn_view(state.seat_view(1), 7)


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch):
    monkeypatch.setattr(comm_module, "_parse_cache", {})


def decide_with(model, lines, **environ):
    with scripted_openai_server(model) as server:
        agent = GnomesCommAgent(budget=40, environ={"GNOMES_LLM_BASE_URL": server.base_url, **environ})
        return agent.decide(view_after(lines)), server


def test_a_model_that_disagrees_with_the_rules_is_set_aside_and_the_move_says_so(caplog):
    with caplog.at_level(logging.WARNING, logger="agents_app.agents.gnomes.comm_agent"):
        decision, server = decide_with(says_none, LINES)
    assert decision.note == "intent parser: rules (the LLM agreed with them on 0/6 partner lines, below 50%)"
    assert "using the rules" in caplog.text
    assert len(server.requests) == len(LINES)  # each line asked once; the calls stay on record
    assert [c.purpose for c in decision.calls] == ["intent"] * len(LINES)


def test_a_model_that_agrees_is_trusted_and_its_agreement_noted():
    decision, _ = decide_with(reads_like_the_rules, LINES)
    assert decision.note == "intent parser: LLM (agrees with the rules on 6/6 partner lines)"


def test_too_few_lines_are_no_verdict_and_a_zero_threshold_trusts_the_model_always():
    decision, _ = decide_with(says_none, LINES[:5])
    assert decision.note == "intent parser: LLM (agrees with the rules on 0/5 partner lines)"
    decision, _ = decide_with(says_none, LINES, GNOMES_LLM_MIN_AGREEMENT="0")
    assert decision.note.startswith("intent parser: LLM (")


def test_failed_calls_are_not_counted_as_agreement():
    decision, _ = decide_with(lambda body: "no idea", LINES)  # unparseable: each line falls back to the rules
    assert decision.note == "intent parser: LLM (agrees with the rules on 0/0 partner lines)"


def test_without_a_model_there_is_nothing_to_note():
    agent = GnomesCommAgent(budget=40, environ={})
    assert agent.decide(view_after(LINES)).note is None


@pytest.mark.parametrize(("raw", "value"), [("", DEFAULT_MIN_AGREEMENT), ("0.8", 0.8), ("2", DEFAULT_MIN_AGREEMENT),
                                            ("most", DEFAULT_MIN_AGREEMENT), ("0", 0.0)])
def test_the_threshold_comes_from_the_environment(raw, value):
    assert min_agreement_from_env({"GNOMES_LLM_MIN_AGREEMENT": raw}) == value
