"""Issue 21: constrained replies, context budgets and the hard decision deadline, against the scripted
OpenAI-compatible server (real HTTP, the official openai client).

- A schema-capable endpoint receives a schema whose action enum is exactly the legal ids; a JSON-mode-only endpoint
  gets JSON mode; a plain one the free-text path; an endpoint that refuses a format is asked again one step down.
  Each call records the format it asked for.
- A Hive decision for a 4,096-token configuration sends a prompt within its budget and plays a legal move.
- An endpoint that takes 20 s over every reply makes a decision fall back within the 30 s deadline.
"""

from __future__ import annotations

import json
import time

from agents_app.agents.llm import probe
from agents_app.agents.llm.fitting import budget
from agents_app.agents.llm.tokens import estimate_tokens
from tests.agents_app.llm import (
    JSON_ONLY_CAPS,
    PLAIN_CAPS,
    SCHEMA_CAPS,
    agent_for,
    hive_midgame_view,
    santorini_view,
    settings_for,
)
from tests.support.openai_server import ScriptedReply, scripted_openai_server


def obeying(body: dict) -> ScriptedReply:
    """A model that plays the first id its reply format allows: the schema's enum, else the first listed id."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        schema = fmt["json_schema"]["schema"]
        reply = {name: "" for name in schema["required"]}
        reply["action"] = schema["properties"]["action"]["enum"][0]
        return ScriptedReply.text(reply)
    prompt = "\n".join(str(m.get("content")) for m in body["messages"])
    listed = prompt.split("Available action", 1)[1].split("\n", 2)[1]
    first = listed.split(": ")[0].split(", ")[0].strip()  # "id: label" lines, or ids alone, comma-separated
    return ScriptedReply.text({"action": first} if fmt else f'I choose {{"action": "{first}"}}')


def test_a_schema_endpoint_gets_the_legal_ids_as_the_actions_enum():
    view = santorini_view()
    with scripted_openai_server(obeying) as server:
        decision = agent_for(server, capabilities=SCHEMA_CAPS).decide(view)
    request = server.requests[0].body
    fmt = request["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["properties"]["action"]["enum"] == [a.id for a in view.legal_actions]
    assert schema["additionalProperties"] is False and schema["required"] == ["action"]
    assert decision.fallback_reason is None and decision.action_id == view.legal_actions[0].id
    assert decision.calls[0].details["reply_format"] == "schema"
    assert '"explain"' not in request["messages"][0]["content"]  # no rule explanations offered under a schema


def test_a_json_mode_endpoint_gets_json_mode_and_a_plain_one_free_text():
    view = santorini_view()
    with scripted_openai_server(obeying) as server:
        json_decision = agent_for(server, capabilities=JSON_ONLY_CAPS).decide(view)
        text_decision = agent_for(server, capabilities=PLAIN_CAPS).decide(view)
    json_request, text_request = (r.body for r in server.requests)
    assert json_request["response_format"] == {"type": "json_object"}
    assert "response_format" not in text_request
    assert [json_decision.calls[0].details["reply_format"], text_decision.calls[0].details["reply_format"]] == [
        "json", "text"]
    assert json_decision.fallback_reason is None and text_decision.fallback_reason is None


def test_an_endpoint_refusing_a_format_is_asked_one_step_down_in_the_same_decision():
    def refuses_formats(body: dict) -> ScriptedReply:
        if "response_format" in body:
            return ScriptedReply.error(400, "response_format is not supported by this server")
        return obeying(body)

    with scripted_openai_server(refuses_formats) as server:
        decision = agent_for(server, capabilities=SCHEMA_CAPS, http_retries=0).decide(santorini_view())
    assert [c.details["reply_format"] for c in decision.calls] == ["schema", "json", "text"]
    assert [bool(c.error) for c in decision.calls] == [True, True, False]
    assert decision.fallback_reason is None


def test_the_formats_come_from_a_probe_of_the_endpoint():
    def enforcing(body: dict) -> ScriptedReply:
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema" and "pick" in fmt["json_schema"]["schema"]["properties"]:
            return ScriptedReply.text({"pick": "alpha"})
        if fmt.get("type") == "json_object":
            return ScriptedReply.text({"ok": True})
        return obeying(body) if body["messages"][-1]["content"].count("\n") > 3 else ScriptedReply.text("yes")

    with scripted_openai_server(enforcing) as server:
        found = probe(settings_for(server), environ={}).capabilities()
        decision = agent_for(server, capabilities=found).decide(santorini_view())
    assert found["json_schema"] and decision.calls[0].details["reply_format"] == "schema"


def test_a_hive_decision_for_a_4096_token_model_fits_its_budget_and_plays_a_legal_move():
    view = hive_midgame_view()
    with scripted_openai_server(obeying) as server:
        # Every move listed (not chosen part by part, tests/agents_app/llm/test_composing.py): the fitting at work.
        unfitted = agent_for(server, capabilities=JSON_ONLY_CAPS, max_listed_actions=0).decide(view)  # sent whole
        fitted_agent = agent_for(server, capabilities=JSON_ONLY_CAPS, context_tokens=4096, max_tokens=512,
                                 max_listed_actions=0)
        decision = fitted_agent.decide(view)
    whole, sent = (estimate_tokens(r.body["messages"]) for r in server.requests)
    limit = budget(fitted_agent.settings)
    assert limit == 4096 - 512 - 32
    assert whole > 4096 and sent <= limit, (whole, sent)  # the whole prompt would not have fitted the model at all
    assert unfitted.fallback_reason is None
    assert decision.fallback_reason is None and decision.action_id in {a.id for a in view.legal_actions}
    details = decision.calls[0].details
    assert details["prompt_tokens_counted"] == sent and details["counted_by"] == "estimate"
    assert details["prompt_cuts"], "the prompt was cut to fit"
    print(f"\nHive prompt: {whole} tokens whole (estimated), {sent} sent within a budget of {limit} after: "
          f"{', '.join(details['prompt_cuts'])}; {len(view.legal_actions)} legal moves")


def test_the_servers_own_token_count_is_used_where_it_has_one():
    view = hive_midgame_view()
    with scripted_openai_server(obeying, tokenizer="llama.cpp") as server:
        decision = agent_for(server, capabilities={**JSON_ONLY_CAPS, "tokenizer": "llama.cpp"},
                             context_tokens=4096).decide(view)
    assert decision.calls[0].details["counted_by"] == "llama.cpp"
    assert any(r.path == "/tokenize" for r in server.side_requests)


def test_a_prompt_that_cannot_fit_is_refused_with_a_clear_reason():
    view = hive_midgame_view()
    with scripted_openai_server(obeying) as server:
        agent = agent_for(server, context_tokens=600, max_tokens=500)
        problem = agent.prompt_problem(view)
        decision = agent.decide(view)
    assert problem.startswith("the prompt does not fit the model's context: ") and "max_tokens" in problem
    assert decision.fallback_reason.startswith("the prompt does not fit") and server.requests == []


def test_an_endpoint_20_s_slow_on_every_reply_makes_the_decision_fall_back_within_the_30_s_deadline():
    """Chain-of-Thought asks twice: the reasoning comes after 20 s, so the move request has the 10 s left as its
    timeout and the decision falls back when they are spent (the default deadline, 30 s, covers every call)."""
    slow = ScriptedReply.text({"action": "place:c3"}, delay=20.0)
    view = santorini_view()
    with scripted_openai_server(lambda body: slow) as server:
        agent = agent_for(server, scaffold="cot", timeout_s=60.0)
        assert agent.settings.decision_deadline_s == 30.0
        started = time.monotonic()
        decision = agent.decide(view)
        took = time.monotonic() - started
    assert decision.fallback_reason is not None and "deadline" in decision.fallback_reason
    reason, move = decision.calls[0], decision.calls[1]
    assert reason.purpose == "reason" and not reason.error and reason.latency_ms >= 19_000
    assert move.error and move.latency_ms <= 11_000  # cut at the deadline, not at the 60 s call timeout
    print(f"\ndeadline: fell back after {took:.1f} s ({decision.fallback_reason})")
    assert took < 30.0 + 2.0  # the deadline plus a little local work, not the 60 s timeout or more calls
    assert json.dumps([c.purpose for c in decision.calls]) == '["reason", "move"]'


def test_an_id_ending_in_a_backslash_garbled_by_the_servers_grammar_is_still_read():
    """llama-cpp-python's schema grammar wrote the Hive move "wG3 wG2\\" as {"action": "wG3 wG2\\"} (the backslash
    unescaped: the string never closes), so every such move fell back; under a schema the id is read anyway."""
    from agents_app.agents.llm.replies import InvalidReply, parse_reply

    view = hive_midgame_view()
    ending = next(a.id for a in view.legal_actions if a.id.endswith("\\"))
    garbled = '{ "action": "' + ending + '"}'
    parsed = parse_reply(garbled, view, lenient=True)
    assert parsed.action_id == ending
    try:
        parse_reply(garbled, view)
    except InvalidReply:
        pass
    else:
        raise AssertionError("the strict reading accepted a reply that is not JSON")
    with scripted_openai_server([ScriptedReply.text(garbled)]) as server:  # the whole id asked for, not in parts
        decision = agent_for(server, capabilities=SCHEMA_CAPS, max_listed_actions=0).decide(view)
    assert decision.fallback_reason is None and decision.action_id == ending
