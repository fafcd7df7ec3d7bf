"""A real Gnomes match against the communicating agent with a model configured: every request its language
module makes is stored like any agent's calls (AgentCall rows tied to the event its decision produced), and the
finished match's transcripts show them."""

from __future__ import annotations

import json

import pytest

from agents_app.agents.gnomes import comm_agent as comm_module
from agents_app.agents.gnomes.llm import SYSTEM_PROMPT
from agents_app.models import AgentCall
from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery  # noqa: F401  (a fixture)
from tests.support.openai_server import scripted_openai_server

# Real commits: the agent answers once the human's move commits (gameplay.signals.agent_turn_due).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

ANSWER = "I cannot see the treasure on my side; could you look on yours?"


def model(body) -> str:
    """Labels every partner line an inquiry, and answers inquiries with a fixed sentence."""
    return "INQUIRY" if body["messages"][0]["content"] == SYSTEM_PROMPT else ANSWER


@pytest.fixture
def endpoint(monkeypatch):
    monkeypatch.setattr(comm_module, "_parse_cache", {})
    with scripted_openai_server(model) as server:
        # Agents are built per decision from the process environment, as on a worker.
        monkeypatch.setenv("GNOMES_LLM_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        yield server


def test_the_language_modules_calls_are_stored_with_the_agents_move(endpoint, client, django_user_model):
    agent = SeatController("agent", agent_name="gnomes-comm")
    match = services.create_match(
        "gnomes", [SeatController("human"), agent], seed=3, options={"turn_cap": 4}, host_seat=0
    )
    services.post_message(match.pk, 0, "where is the treasure?")
    state = state_of(match)
    match = services.submit_action(match.pk, 0, state.legal_actions(0)[0].id, expected_version=match.version)
    match.refresh_from_db()
    assert state_of(match).current_seats() == [0]  # the agent has moved (eager Celery, after the commit)

    calls = list(AgentCall.objects.filter(match=match).select_related("event").order_by("seq"))
    assert [c.purpose for c in calls] == ["intent", "inquiry"]
    assert len(endpoint.requests) == 2  # one request per stored call
    event = calls[0].event
    assert event is not None and all(c.event_id == event.pk for c in calls)
    assert (event.kind, event.seat, event.payload["agent"], event.payload["model_calls"]) == (
        "action",
        1,
        "gnomes-comm",
        2,
    )
    assert "fallback" not in event.payload  # the planner chose the move; the model only read and answered chat
    intent, inquiry = calls
    assert (intent.raw_reply, intent.parsed_action, intent.agent_name, intent.seat) == (
        "INQUIRY",
        "INQUIRY",
        "gnomes-comm",
        1,
    )
    assert "where is the treasure?" in intent.request_messages[-1]["content"]
    assert inquiry.raw_reply == ANSWER and intent.latency_ms is not None and intent.prompt_tokens > 0
    # The answer reached the chat, right after the agent's move.
    said = Event.objects.filter(match=match, kind=Event.Kind.MESSAGE, seat=1).get()
    assert said.payload["text"] == ANSWER and said.seq == event.seq + 1

    # Once the round is over, the transcripts show them like any agent's: to the research team, while rounds of the
    # same maze are still to come (issue 37, point 2).
    client.force_login(django_user_model.objects.create_user("researcher", password="x", is_staff=True))
    while match.status == Match.Status.ACTIVE:
        state = state_of(match)
        match = services.submit_action(match.pk, 0, state.legal_actions(0)[0].id, expected_version=match.version)
        match.refresh_from_db()
    rows = [
        json.loads(line)
        for line in b"".join(client.get(f"/matches/{match.pk}/transcripts.jsonl").streaming_content).splitlines()
    ]
    assert [r["purpose"] for r in rows][:2] == ["intent", "inquiry"] and rows[0]["event_seq"] == event.seq
    panel = client.get(f"/matches/{match.pk}/events/{event.seq}/transcript/").content.decode()
    assert "Model calls (2)" in panel and "INQUIRY" in panel
