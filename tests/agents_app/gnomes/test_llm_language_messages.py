"""Gnomes language, outgoing messages: the suggestion and wall templates, and inquiry answers by template or LLM."""

from __future__ import annotations

import re

import pytest

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.messages import (
    INQUIRY_SYSTEM_PROMPT,
    MAX_ANSWER_CHARS,
    InquiryFacts,
    answer_inquiry,
    cannot,
    suggest,
    template_answer,
)
from tests.agents_app.gnomes.llm_support import caller_for, settings_for
from tests.support.openai_server import ScriptedReply, scripted_openai_server

FACTS = InquiryFacts(
    token=(2, 3),
    open_moves=("stay", "right", "down"),
    blocked_moves=("up", "left"),
    treasure=None,
    suggestion="right",
    turn=7,
    turn_cap=40,
)


# --- Outgoing messages ---------------------------------------------------------------------------------------


def test_suggest_and_cannot_templates():
    assert suggest(Flag.RIGHT) == "Can you move right?"
    assert suggest(Flag.UP) == "Can you move up?"
    assert suggest(Flag.STAY) == "Can you stay put this turn?"
    assert cannot("left") == "I cannot move left because there is a wall in that direction."
    with pytest.raises(ValueError):
        suggest(Flag.ACCEPT)
    with pytest.raises(ValueError):
        cannot("stay")


def test_template_answers_about_the_treasure():
    hidden = template_answer("where is the treasure?", FACTS)
    assert hidden == "I can't see the treasure — it must be on your side. Which way should we go?"
    visible = InquiryFacts((2, 3), ("right",), (), treasure=(5, 1), suggestion=None, turn=1, turn_cap=40)
    # 0-based (5, 1) is column 6, row 2 for people; from (2, 3) that is 3 right and 2 up.
    assert template_answer("can you see the gem?", visible) == (
        "The treasure is on my side at column 6, row 2 — from the token that is 3 right and 2 up."
    )
    below = InquiryFacts((4, 0), (), (), treasure=(4, 8), suggestion=None, turn=1, turn_cap=40)
    assert template_answer("where's the treasure", below).endswith("from the token that is 8 down.")


def test_template_answers_about_moves_turns_and_suggestions():
    assert template_answer("which way should I go?", FACTS) == (
        "From here I can move right or down on my side. Walls block up and left. Can you move right?"
    )
    stuck = InquiryFacts((0, 0), ("stay",), ("up", "left"), None, suggestion="stay", turn=3, turn_cap=40)
    assert template_answer("what walls do you have?", stuck) == (
        "From here every direction is walled off on my side. Walls block up and left. Can you stay put this turn?"
    )
    assert template_answer("how many turns do we have left?", FACTS) == "We are on turn 7 of 40."


def test_answer_without_a_caller_is_the_template():
    assert answer_inquiry("where is the treasure?", FACTS) == template_answer("where is the treasure?", FACTS)


def test_llm_answer_gets_only_the_facts_and_no_treasure_position_when_hidden():
    with scripted_openai_server(["  I can't see the treasure from my side.\n Could you try moving right?  "]) as server:
        caller = caller_for(settings_for(server))
        answer = answer_inquiry("where is the treasure?", FACTS, caller)
    assert answer == "I can't see the treasure from my side. Could you try moving right?"
    (call,) = caller.calls
    assert call.purpose == "inquiry" and call.error == "" and "treasure" in call.raw_reply
    (request,) = server.requests
    system, user = request.messages
    assert system == {"role": "system", "content": INQUIRY_SYSTEM_PROMPT}
    assert "never state or guess a position of the treasure" in INQUIRY_SYSTEM_PROMPT.lower()
    prompt = user["content"]
    assert "where is the treasure?" in prompt
    assert "column 3, row 4" in prompt  # the token, 1-based
    assert "open on my side from the token: right, down" in prompt
    assert "blocked by walls on my side: up, left" in prompt
    assert "move the token right next" in prompt and "turn 7 of at most 40" in prompt
    assert "cannot see the treasure" in prompt
    # The only position anywhere in the request is the token's.
    assert re.findall(r"column \d+, row \d+", request.prompt_text) == ["column 3, row 4"]
    assert not re.search(r"\(\s*\d+\s*,\s*\d+\s*\)", request.prompt_text)


def test_llm_answer_is_told_a_visible_treasure():
    visible = InquiryFacts((2, 3), ("right",), ("up",), treasure=(5, 1), suggestion=None, turn=2, turn_cap=40)
    with scripted_openai_server(["It is 3 right and 2 up from us."]) as server:
        answer_inquiry("where's the gem?", visible, caller_for(settings_for(server)))
    prompt = server.requests[0].prompt_text
    assert "treasure is on my side at column 6, row 2 (3 right and 2 up from the token)" in prompt


def test_llm_answer_is_cut_to_300_characters():
    with scripted_openai_server(["word " * 200]) as server:
        answer = answer_inquiry("what can you see?", FACTS, caller_for(settings_for(server)))
    assert len(answer) <= MAX_ANSWER_CHARS
    assert answer.endswith("…") and answer.startswith("word word")


@pytest.mark.parametrize(
    "reply", [ScriptedReply.error(500), ScriptedReply.text("   "), ScriptedReply.text("late", delay=3.0)]
)
def test_llm_answer_failures_use_the_template(reply, caplog):
    with scripted_openai_server([reply]) as server:
        caller = caller_for(settings_for(server, timeout_s=0.3))
        answer = answer_inquiry("where is the treasure?", FACTS, caller)
    assert answer == template_answer("where is the treasure?", FACTS)
    assert "LLM inquiry answer failed" in caplog.text
    assert len(caller.calls) == 1 and caller.calls[0].error  # the failed request is recorded too
