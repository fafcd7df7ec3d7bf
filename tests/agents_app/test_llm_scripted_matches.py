"""Issue 5's scripted cases in whole matches: the first decision of an LLM seat meets the case, later ones are
answered properly; each case ends with a legal action or a flagged fallback, and the match completes.

A real local HTTP server speaks the chat-completions protocol; the LLM seat uses the official openai client.
(Free-text actions: no registered game has one yet, so that case is covered on a hand-built view in
tests/agents_app/llm/test_llm_agent.py.) Also: a Santorini tournament base-vs-random and cot-vs-random
through run_tournament, with its transcripts stored.
"""

from __future__ import annotations

import io
import threading

import pytest
from django.core.management import call_command

from agents_app.models import AgentCall, Tournament
from gameplay.models import Event, Match
from tests.agents_app.llm_match_support import (  # noqa: F401  (eager_celery is a fixture)
    calls_of,
    eager_celery,
    first_listed_action,
    llm_config,
    play_llm_vs_random,
)
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

SLOW = ScriptedReply.text({"action": "anything"}, delay=2.0)

CASES = {
    "valid move": ([], False),
    "explain then move": ([ScriptedReply.text({"explain": "moves"})], False),
    "malformed JSON": ([ScriptedReply.text('{"action": "a1"')], False),
    "unknown id": ([ScriptedReply.text({"action": "z9-teleport"})], False),
    "refusal": ([ScriptedReply.text("I'm sorry, but I can't help with that.")], False),
    "HTTP 500": ([ScriptedReply.error(500, "upstream exploded")], False),
    "429 with Retry-After": ([ScriptedReply.error(429, "slow down", headers={"Retry-After": "1"})], False),
    # Every attempt of the first decision is slower than the 0.5 s timeout: it must fall back, not hang.
    "slower than the timeout": ([SLOW, SLOW], True),
}


class FirstRepliesThenPlay:
    """Serve the scripted replies first, then play properly (the first legal action listed)."""

    def __init__(self, first):
        self.first = list(first)
        self.lock = threading.Lock()

    def __call__(self, body):
        with self.lock:
            if self.first:
                return self.first.pop(0)
        return first_listed_action(body)


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
@pytest.mark.parametrize("case", list(CASES))
def test_each_scripted_case_ends_legally_or_in_a_flagged_fallback_and_the_match_completes(case):
    first, falls_back = CASES[case]
    with scripted_openai_server(FirstRepliesThenPlay(first)) as server:
        llm_config("scripted", server.base_url, retries=2, http_retries=1, timeout_s=0.5)
        match = play_llm_vs_random("scripted")
    assert match.status == Match.Status.FINISHED
    first_event = Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=0).order_by("seq").first()
    assert bool(first_event.payload.get("fallback")) is falls_back
    first_calls = [c for c in calls_of(match) if c.event_id == first_event.pk]
    assert len(first_calls) >= 1 + len(first) - (1 if falls_back else 0)
    assert all(c.fallback is falls_back for c in first_calls)
    later = Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=0).exclude(pk=first_event.pk)
    assert not any(e.payload.get("fallback") for e in later)  # the model recovered for the rest of the match
    if case == "explain then move":
        # A call is named by why it was sent: the move request, then the one carrying the explanation.
        assert [c.purpose for c in first_calls] == ["move", "explain"]
        assert "moves" in str(first_calls[1].request_messages[-1]["content"]).lower()
    if case in ("malformed JSON", "unknown id", "refusal"):
        assert [c.purpose for c in first_calls] == ["move", "correction"]
    if case in ("HTTP 500", "429 with Retry-After"):
        assert first_calls[0].error and not first_calls[-1].error


@pytest.mark.parametrize("scaffold", ["base", "cot"])
def test_a_santorini_tournament_against_random_runs_through_the_scripted_server(scaffold):
    with scripted_openai_server(first_listed_action) as server:
        llm_config(f"llm-{scaffold}", server.base_url, scaffold=scaffold)
        out, err = io.StringIO(), io.StringIO()
        call_command(
            "run_tournament",
            game="santorini",
            agents=f"llm-{scaffold},random",
            matches=2,
            seed=11,
            stdout=out,
            stderr=err,
        )
    tournament = Tournament.objects.get()
    entries = list(tournament.entries.order_by("index"))
    assert tournament.status == Tournament.Status.FINISHED
    assert [e.status for e in entries] == ["finished", "finished"]
    assert [e.seat_agents for e in entries] == [[f"llm-{scaffold}", "random"], ["random", f"llm-{scaffold}"]]
    assert "2/2 matches finished" in out.getvalue() + err.getvalue()
    calls = AgentCall.objects.filter(match__in=[e.match for e in entries], agent_name=f"llm-{scaffold}")
    purposes = set(calls.values_list("purpose", flat=True))
    assert purposes == ({"move"} if scaffold == "base" else {"reason", "move"})
    assert calls.count() == len(server.requests)
    assert not calls.filter(fallback=True).exists()
    assert all(c.event_id for c in calls)
    if scaffold == "cot":
        reasoning = calls.filter(purpose="reason").first()
        assert reasoning.request_messages[-1]["content"].endswith(
            "First, let's reason out loud about which action you should take to maximize your probability of winning."
        )
