"""The base and Chain-of-Thought LLM agent through the official openai client and a real local server."""

from __future__ import annotations

import json
import logging
import random
import re
import time
from types import SimpleNamespace

import pytest

from agents_app.agents.base import TurnView
from agents_app.agents.llm import LLMAgent, LLMAgentSettings, prompts
from agents_app.agents.llm.client import ChatCaller, DeadlineReached, make_openai_client, scrub
from agents_app.agents.llm.probe import tiny_png
from agents_app.agents.llm.prompts import COT_SENTENCE
from agents_app.agents.llm.replies import ExplainReply, InvalidReply, MoveReply, parse_reply
from agents_app.agents.random_agent import RandomAgent
from gameplay.engines.registry import create_game
from tests.agents_app.llm import SleepRecorder, agent_for, clue_view, last_user_text, santorini_view, settings_for
from tests.support.openai_server import ScriptedReply, scripted_openai_server

MOVE_JSON = {"action": "place:c3"}
MOVE = ScriptedReply.text(MOVE_JSON)
KEY = "custom-Secret-Value-987654"  # not sk-shaped: only removing the exact key hides it
J = ScriptedReply.text  # a JSON reply, as a JSON-mode model sends it


def legal_ids(view: TurnView) -> set[str]:
    return {a.id for a in view.legal_actions} | {t.id for t in view.text_actions}


def refusal_reply(text: str) -> ScriptedReply:
    # The scripted server builds its 200 replies itself with ``refusal: null``; a 2xx status with a hand-made body
    # is sent verbatim, and the openai client accepts any 2xx as a completion, so this carries a real refusal field.
    body = {
        "id": "chatcmpl-refusal",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "refusal": text},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    return ScriptedReply(status=201, body=body)


# --- settings ---------------------------------------------------------------------------------------------------


def test_settings_from_any_config_object_and_a_redacted_repr():
    config = SimpleNamespace(
        name="gpt",
        base_url="https://user:pw@api.example/v1?key=abc",
        model="m",
        api_key_env=None,
        temperature=0.3,
        max_tokens=100,
        timeout_s=5.0,
        retries=1,
        http_retries=2,
        explain_limit=0,
        scaffold="cot",
        rap_depth=3,
        rap_iterations=4,
        vision=True,
        json_mode=False,
        description="not a setting",
        created_at="ignored",
    )
    settings = LLMAgentSettings.from_config(config)
    assert (settings.scaffold, settings.rap_depth, settings.vision, settings.api_key_env) == ("cot", 3, True, "")
    assert "pw" not in repr(settings) and "abc" not in repr(settings)
    assert settings.decision_budget_s() == 30.0  # the hard decision deadline, whatever the scaffold
    with pytest.raises(ValueError, match="unknown scaffold"):
        LLMAgentSettings("x", "http://h/v1", "m", scaffold="tree")


# --- the happy path ---------------------------------------------------------------------------------------------


def test_a_valid_move_is_played_and_fully_recorded():
    view = santorini_view()
    with scripted_openai_server([MOVE]) as server:
        decision = agent_for(server).decide(view)
    assert (decision.action_id, decision.text, decision.fallback_reason) == ("place:c3", None, None)
    (call,) = decision.calls
    assert (call.purpose, call.parsed_action, call.error) == ("move", "place:c3", "")
    assert call.raw_reply == json.dumps(MOVE_JSON)
    assert call.prompt_tokens > 0 and call.completion_tokens > 0 and call.latency_ms is not None
    system, user = server.requests[0].messages
    assert view.rules.summary in system["content"]
    topic = next(iter(view.rules.topics))
    assert "moving" in system["content"] and json.dumps({"explain": topic}) in system["content"]
    # No real id to copy: the reply's shape only, with placeholders a schema would not even admit (issue 42).
    tail = system["content"].split("The topics are")[1]
    assert re.findall(r"<[^<>]*>", tail) == [prompts.ACTION_PLACEHOLDER]
    assert not any(f'"{a.id}"' in tail for a in view.legal_actions)
    assert view.observation.text in user["content"] and "place:a1: Place a worker on A1" in user["content"]
    assert call.request_messages == server.requests[0].messages


def test_json_mode_is_requested_only_when_configured():
    with scripted_openai_server([MOVE, MOVE]) as server:
        agent_for(server).decide(santorini_view())
        agent_for(server, json_mode=False).decide(santorini_view())
    assert server.requests[0].body["response_format"] == {"type": "json_object"}
    assert "response_format" not in server.requests[1].body


def test_a_fenced_json_reply_is_accepted_but_chatter_around_it_is_not():
    view = santorini_view()
    assert parse_reply('```json\n{"action": "place:c3"}\n```', view) == MoveReply("place:c3")
    assert parse_reply('  {"explain": "moving", "mood": "curious"}  ', view) == ExplainReply("moving")
    for bad in ('Sure! ```json {"action": "place:c3"}```', '{"action": "place:c3"} {"action": "place:c4"}', "[1]"):
        with pytest.raises(InvalidReply) as caught:
            parse_reply(bad, view)
        assert caught.value.kind == "malformed"


# --- rules explanations ----------------------------------------------------------------------------------------


def test_an_explanation_does_not_use_up_the_retries():
    view = santorini_view()
    with scripted_openai_server([J({"explain": "moving"}), MOVE]) as server:
        decision = agent_for(server, retries=0).decide(view)
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    assert [c.purpose for c in decision.calls] == ["move", "explain"]
    second = server.requests[1].messages
    assert second[-2] == {"role": "assistant", "content": json.dumps({"explain": "moving"})}
    assert view.rules.topics["moving"] in second[-1]["content"]


def test_explanations_and_corrections_are_counted_apart():
    script = [J({"explain": "moving"}), J({"explain": "setup"}), "c3!", MOVE]
    with scripted_openai_server(script) as server:
        decision = agent_for(server, retries=1, explain_limit=2).decide(santorini_view())
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    assert [c.purpose for c in decision.calls] == ["move", "explain", "explain", "correction"]


def test_an_unknown_topic_is_answered_with_the_known_ones():
    with scripted_openai_server([J({"explain": "gods"}), MOVE]) as server:
        decision = agent_for(server, retries=0).decide(santorini_view())
    assert decision.fallback_reason is None
    assert "Unknown topic 'gods', known: setup, moving, building" in last_user_text(server.requests[1].body)


def test_explanations_beyond_the_limit_count_as_invalid():
    with scripted_openai_server([J({"explain": "moving"}), J({"explain": "setup"})]) as server:
        decision = agent_for(server, retries=0, explain_limit=1).decide(santorini_view())
    assert decision.action_id in legal_ids(santorini_view())
    assert "explanation" in decision.fallback_reason and len(server.requests) == 2


# --- invalid replies and corrections ---------------------------------------------------------------------------


def test_malformed_json_is_corrected_and_the_correction_recorded():
    with scripted_openai_server(["place c3 please", MOVE]) as server:
        decision = agent_for(server, retries=1).decide(santorini_view())
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    first, second = decision.calls
    assert first.error.startswith("invalid reply (malformed)") and first.parsed_action == ""
    assert second.purpose == "correction"
    sent = server.requests[1].messages
    assert sent[-2] == {"role": "assistant", "content": "place c3 please"}
    assert sent[-1]["content"].startswith("Your reply was invalid: the reply is not a single JSON object")
    assert "place:a1, place:a2" in sent[-1]["content"]
    assert second.request_messages[-1] == sent[-1]


def test_an_unknown_action_id_is_corrected():
    with scripted_openai_server([J({"action": "place:z9"}), MOVE]) as server:
        decision = agent_for(server).decide(santorini_view())
    assert decision.action_id == "place:c3"
    assert "'place:z9' is not one of the available action ids" in last_user_text(server.requests[1].body)


def test_an_open_ended_action_needs_its_text():
    view = clue_view()
    with scripted_openai_server([J({"action": "clue"}), J({"action": "clue", "text": " river,2 "})]) as server:
        decision = agent_for(server).decide(view)
    assert (decision.action_id, decision.text, decision.fallback_reason) == ("clue", "river,2", None)
    assert 'needs a non-empty "text"' in last_user_text(server.requests[1].body)
    assert "at most 20 characters" in server.requests[0].messages[1]["content"]


def test_text_too_long_or_refused_by_the_validator_is_corrected():
    def needs_a_number(action_id: str, text: str) -> str | None:
        return None if re.fullmatch(r"\w+,\d", text) else "use the form word,number"

    view = clue_view()
    script = [
        J({"action": "clue", "text": "x" * 21}),
        J({"action": "clue", "text": "river"}),
        J({"action": "clue", "text": "river,2"}),
    ]
    with scripted_openai_server(script) as server:
        agent = LLMAgent(settings_for(server), environ={}, sleep=SleepRecorder(), text_validator=needs_a_number)
        decision = agent.decide(view)
    assert decision.text == "river,2" and decision.fallback_reason is None
    assert "has 21 characters; at most 20" in last_user_text(server.requests[1].body)
    assert "was rejected: use the form word,number" in last_user_text(server.requests[2].body)


@pytest.mark.parametrize("reply", [refusal_reply("I won't play games."), "I can't help with that."])
def test_refusals_are_invalid_and_corrected(reply):
    with scripted_openai_server([reply, MOVE]) as server:
        decision = agent_for(server).decide(santorini_view())
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    assert decision.calls[0].error.startswith("invalid reply (refusal)")
    assert "this is a game, choose a move" in last_user_text(server.requests[1].body)


def test_all_invalid_replies_end_in_a_flagged_seeded_fallback():
    view = santorini_view(seed=11)
    with scripted_openai_server(["nope", "", J({"move": "c3"})]) as server:
        decision = agent_for(server, retries=2).decide(view)
    assert decision.fallback_reason.startswith("no valid reply after 2 correction(s)")
    assert 'no "action" key' in decision.fallback_reason
    assert decision.action_id == random.Random(11).choice(view.legal_actions).id
    assert [c.purpose for c in decision.calls] == ["move", "correction", "correction"]
    assert "empty" in decision.calls[1].error and len(server.requests) == 3


def test_no_legal_action_at_all_is_an_error():
    view = TurnView(**{**santorini_view().__dict__, "legal_actions": ()})
    with scripted_openai_server([]) as server, pytest.raises(ValueError):
        agent_for(server).decide(view)


# --- HTTP trouble -------------------------------------------------------------------------------------------------


def test_a_server_error_is_retried_with_backoff():
    sleep = SleepRecorder()
    with scripted_openai_server([ScriptedReply.error(500, "boom"), MOVE]) as server:
        decision = agent_for(server, sleep=sleep).decide(santorini_view())
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    assert [c.error for c in decision.calls] == ["HTTP 500: boom", ""]
    assert sleep.waits == [0.5]


def test_a_success_status_without_a_completion_is_retried():
    sleep = SleepRecorder()
    proxy_page = ScriptedReply(status=203, body="<html>gateway says hi</html>")
    with scripted_openai_server([proxy_page, MOVE]) as server:
        decision = agent_for(server, sleep=sleep).decide(santorini_view())
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    assert decision.calls[0].error.startswith("the endpoint's reply is not a chat completion: '<html>gateway")
    assert sleep.waits == [0.5]


def test_a_rate_limit_waits_as_long_as_retry_after_says():
    sleep = SleepRecorder()
    limited = ScriptedReply.error(429, "slow down", headers={"Retry-After": "1"})
    with scripted_openai_server([limited, MOVE]) as server:
        decision = agent_for(server, sleep=sleep).decide(santorini_view())
    assert decision.action_id == "place:c3" and len(server.requests) == 2
    assert sleep.waits and sleep.waits[0] >= 1.0


def test_replies_slower_than_the_timeout_are_retried_then_fall_back():
    sleep = SleepRecorder()
    slow = ScriptedReply.text(MOVE_JSON, delay=2.0)
    with scripted_openai_server([slow, slow]) as server:
        started = time.monotonic()
        decision = agent_for(server, sleep=sleep, timeout_s=0.5, http_retries=1).decide(santorini_view())
        elapsed = time.monotonic() - started
    assert decision.fallback_reason == "model request failed 2 times; last: timeout"
    assert [c.error for c in decision.calls] == ["timeout", "timeout"] and sleep.waits == [0.5]
    assert elapsed < 1.9 and decision.action_id in legal_ids(santorini_view())


def test_client_errors_are_not_retried():
    sleep = SleepRecorder()
    with scripted_openai_server([ScriptedReply.error(404, "no such model"), MOVE]) as server:
        decision = agent_for(server, sleep=sleep).decide(santorini_view())
    assert decision.fallback_reason == "model request failed: HTTP 404: no such model"
    assert len(server.requests) == 1 and sleep.waits == []


def test_the_decision_deadline_cuts_retries_short():
    settings = LLMAgentSettings("t", "http://127.0.0.1:1/v1", "m", api_key_env="", timeout_s=5.0, http_retries=5)
    with scripted_openai_server([ScriptedReply.text(MOVE_JSON, delay=2.0)] * 6) as server:
        settings = LLMAgentSettings(**{**settings.__dict__, "base_url": server.base_url})
        caller = ChatCaller(make_openai_client(settings, {}), settings, sleep=SleepRecorder(), budget_s=0.4)
        started = time.monotonic()
        with pytest.raises(DeadlineReached):
            caller.call([{"role": "user", "content": "hi"}], purpose="move")
    assert time.monotonic() - started < 1.5 and len(caller.calls) == 1


# --- images and keys -----------------------------------------------------------------------------------------------


def test_the_picture_is_sent_only_with_vision_and_is_summarised_in_the_transcript():
    png = tiny_png()
    view = TurnView(**{**santorini_view().__dict__, "image": png})
    with scripted_openai_server([MOVE, MOVE]) as server:
        with_vision = agent_for(server, vision=True).decide(view)
        without = agent_for(server, vision=False).decide(view)
    assert len(server.requests[0].image_urls) == 1 and server.requests[0].image_urls[0].startswith("data:image/png")
    assert server.requests[1].image_urls == [] and isinstance(server.requests[1].messages[1]["content"], str)
    recorded = json.dumps(with_vision.calls[0].request_messages, ensure_ascii=False)
    assert re.search(rf"\[image/png {len(png)} bytes sha256:[0-9a-f]{{12}}…\]", recorded)
    assert "base64" not in recorded and without.fallback_reason is None
    assert agent_for(server, vision=True).accepts_images is True


def test_the_key_reaches_the_server_but_no_transcript_repr_or_log(caplog, monkeypatch):
    caplog.set_level(logging.DEBUG)
    echo = ScriptedReply.error(401, f"Incorrect API key provided: {KEY}")
    with scripted_openai_server([MOVE, echo]) as server:
        settings = settings_for(server, api_key_env="MY_LLM_KEY")
        agent = LLMAgent(settings, environ={"MY_LLM_KEY": KEY}, sleep=SleepRecorder())
        played = agent.decide(santorini_view())
        refused = agent.decide(santorini_view())
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert refused.fallback_reason.startswith("model request failed: HTTP 401")
    for shown in (repr(played), repr(refused), repr(agent), repr(settings), caplog.text, agent.description):
        assert KEY not in shown and "Secret-Value" not in shown


def test_key_shaped_text_from_a_server_is_scrubbed():
    assert scrub("bad key sk-proj-abcdef123456 and mine-123", "mine-123") == "bad key sk-*** and ***"


def test_without_a_key_variable_no_ambient_key_is_sent(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with scripted_openai_server([MOVE]) as server:
        LLMAgent(settings_for(server, api_key_env=""), sleep=SleepRecorder()).decide(santorini_view())
    assert KEY not in server.requests[0].headers["authorization"]


# --- Chain-of-Thought ---------------------------------------------------------------------------------------------


def test_chain_of_thought_reasons_first_then_answers_in_json():
    reasoning = "The centre square c3 gives my workers the most room."
    with scripted_openai_server([reasoning, MOVE]) as server:
        decision = agent_for(server, scaffold="cot").decide(santorini_view())
    assert decision.action_id == "place:c3" and decision.fallback_reason is None
    assert [c.purpose for c in decision.calls] == ["reason", "move"]
    first, second = server.requests
    assert first.messages[-1]["content"].endswith(COT_SENTENCE) and "response_format" not in first.body
    assert second.body["response_format"] == {"type": "json_object"}
    assert second.messages[-2] == {"role": "assistant", "content": reasoning}
    assert "final answer" in second.messages[-1]["content"]


# --- a whole game ---------------------------------------------------------------------------------------------------


def first_listed_action(body: dict) -> ScriptedReply:
    """A stand-in model that plays the first action listed in the prompt."""
    prompt = body["messages"][1]["content"]
    listing = prompt.split("Available actions (id: label):\n", 1)[1]
    action_id = re.match(r"(\S+): ", listing).group(1)
    return ScriptedReply.text({"action": action_id})


def test_a_whole_santorini_game_against_random_completes():
    game = create_game("santorini")
    state = game.new_initial_state(21)
    with scripted_openai_server(first_listed_action) as server:
        players = {0: agent_for(server), 1: RandomAgent()}
        llm_moves = 0
        for turn in range(game.max_actions()):
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            view = TurnView(
                game_id="santorini",
                seat=seat,
                observation=state.observation(seat),
                legal_actions=tuple(state.legal_actions(seat)),
                rules=game.rules,
                seed=turn,
            )
            decision = players[seat].decide(view)
            if seat == 0:
                llm_moves += 1
                assert decision.fallback_reason is None and decision.action_id == view.legal_actions[0].id
            state.apply_action(seat, decision.action_id, decision.text)
        requests = len(server.requests)
    assert state.is_terminal() and state.winner() in (0, 1)
    assert llm_moves > 5 and requests == llm_moves
