"""LLM seats in real matches: every model call stored with its event, shown on the replay, exported as JSONL.

The model is a real local HTTP server (tests/support/openai_server.py) reached by the real LLMAgent through the
official openai client; matches run through create_match and eager Celery like any agent match.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from agents_app import selectors as agent_selectors
from agents_app import services as agent_services
from agents_app.agents.base import ModelCall
from agents_app.models import AgentCall
from gameplay.engines.registry import create_game
from gameplay.engines.seat_view import refusal_checker
from gameplay.models import Event, Match
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import (  # noqa: F401  (eager_celery is a fixture)
    calls_of,
    eager_celery,
    first_listed_action,
    llm_config,
    play_llm_vs_random,
)
from tests.support.openai_server import scripted_openai_server

# Real commits: agents answer once the transaction of a move commits (gameplay.signals.agent_turn_due).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

GARBAGE = "<b>no idea</b> & no JSON"


@pytest.fixture
def player():
    with scripted_openai_server(first_listed_action) as server:
        llm_config("scripted", server.base_url)
        yield server


@pytest.fixture
def garbage_player():
    with scripted_openai_server(lambda body: GARBAGE) as server:
        llm_config("confused", server.base_url)
        yield server


def test_an_llm_match_completes_with_every_call_tied_to_its_event(player):
    match = play_llm_vs_random("scripted")
    assert match.status == Match.Status.FINISHED
    calls = calls_of(match)
    assert calls and len(calls) == len(player.requests)  # one row per request the model answered
    llm_events = Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=0)
    assert {c.event_id for c in calls} == set(llm_events.values_list("pk", flat=True))
    for call in calls:
        event = call.event
        assert (call.seat, call.agent_name, call.purpose, call.fallback) == (0, "scripted", "move", False)
        assert event.version == call.version + 1  # the decision was made at the version before its action
        assert call.parsed_action == event.payload["action_id"]
        assert event.payload["agent"] == "scripted" and event.payload["model_calls"] == 1
        assert "fallback" not in event.payload
        assert json.loads(call.raw_reply) == {"action": call.parsed_action}
        assert call.request_messages[0]["role"] == "system" and call.latency_ms is not None
        assert call.prompt_tokens > 0 and call.completion_tokens > 0
    # The random seat made no model calls, and its events say nothing about them.
    assert not Event.objects.filter(match=match, seat=1, payload__has_key="model_calls").exists()


def test_a_model_that_answers_garbage_falls_back_and_the_match_still_ends(garbage_player):
    match = play_llm_vs_random("confused", seed=3)
    assert match.status == Match.Status.FINISHED
    calls = calls_of(match)
    per_event = Counter(c.event_id for c in calls)
    assert set(per_event.values()) == {2}  # the move and one correction, then the agent gave up
    assert all(c.fallback and c.event_id for c in calls)
    assert [c.purpose for c in calls[:2]] == ["move", "correction"] and [c.seq for c in calls[:2]] == [1, 2]
    assert all(c.error.startswith("invalid reply") and c.raw_reply == GARBAGE for c in calls)
    for event in Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=0):
        assert event.payload["fallback"] is True and event.payload["model_calls"] == 2
        assert "no valid reply" in event.payload["fallback_reason"]


def panel_url(match: Match, event: Event) -> str:
    return f"/matches/{match.pk}/events/{event.seq}/transcript/"


def test_the_replay_loads_the_calls_of_each_step_escaped(client, garbage_player):
    match = play_llm_vs_random("confused", seed=3)
    event = calls_of(match)[0].event
    html = client.get(f"/matches/{match.pk}/replay/?step={event.seq}").content.decode()
    # The replay (gameplay) only names agents_app's panel; htmx loads it into the step.
    assert f'hx-get="{panel_url(match, event)}"' in html and 'hx-trigger="load"' in html
    assert f'href="/matches/{match.pk}/transcripts.jsonl"' in html
    panel = client.get(panel_url(match, event))
    assert panel.status_code == 200
    text = panel.content.decode()
    assert "Model calls (2)" in text and "fallback" in text
    assert "fell back to a random move: no valid reply" in text  # the reason, from the move's event
    assert "&lt;b&gt;no idea&lt;/b&gt; &amp; no JSON" in text and GARBAGE not in text
    assert "Available actions (id: label)" in text  # the messages sent, with their roles
    # A step of the other seat has no transcript section, and its panel is empty.
    other = Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=1).first()
    assert "/transcript/" not in client.get(f"/matches/{match.pk}/replay/?step={other.seq}").content.decode()
    assert client.get(panel_url(match, other)).content.decode().strip() == ""
    assert client.get(f"/matches/{match.pk}/events/99999/transcript/").status_code == 404


def test_the_replay_htmx_partial_loads_the_transcript_too(client, player):
    match = play_llm_vs_random("scripted")
    event = calls_of(match)[0].event
    response = client.get(f"/matches/{match.pk}/replay/?step={event.seq}", headers={"HX-Request": "true"})
    assert f'hx-get="{panel_url(match, event)}"' in response.content.decode()
    assert "Model calls (1)" in client.get(panel_url(match, event), headers={"HX-Request": "true"}).content.decode()


def test_a_match_without_model_calls_offers_no_transcripts(client):
    match = services.create_match(
        "santorini", [SeatController("agent", agent_name="random")] * 2, seed=4, host_seat=None
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    html = client.get(f"/matches/{match.pk}/replay/?step=3").content.decode()
    assert "transcripts.jsonl" not in html and "/transcript/" not in html
    assert client.get(f"/matches/{match.pk}/transcripts.jsonl").status_code == 200  # an empty file, not an error


def test_the_jsonl_export_has_one_line_per_call(client, player):
    match = play_llm_vs_random("scripted")
    response = client.get(f"/matches/{match.pk}/transcripts.jsonl")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert response["Content-Disposition"] == f'attachment; filename="match-{match.pk}-transcripts.jsonl"'
    lines = b"".join(response.streaming_content).decode().splitlines()
    rows = [json.loads(line) for line in lines]
    calls = calls_of(match)
    assert len(rows) == len(calls) == AgentCall.objects.filter(match=match).count()
    first, call = rows[0], calls[0]
    assert set(first) == {
        "match",
        "event_seq",
        "version",
        "seat",
        "agent",
        "seq",
        "purpose",
        "request_messages",
        "raw_reply",
        "parsed_action",
        "error",
        "fallback",
        "latency_ms",
        "prompt_tokens",
        "completion_tokens",
        "details",
        "fallback_reason",
        "created_at",
    }
    assert (first["match"], first["event_seq"], first["version"], first["seat"]) == (
        match.pk,
        call.event.seq,
        call.version,
        0,
    )
    assert first["agent"] == "scripted" and first["request_messages"] == call.request_messages
    # a base-scaffold move that did not fall back, asked for in JSON mode (the endpoint was never probed), with what
    # the prompt suggested (nothing) and whether the move was the first action listed (issue 42)
    assert first["fallback_reason"] == ""
    assert first["details"] == {"reply_format": "json", "suggested_actions": [], "copied_suggestion": False,
                                "first_listed": first["details"]["first_listed"]}
    assert [r["version"] for r in rows] == sorted(r["version"] for r in rows)


def test_transcripts_and_replay_stay_closed_until_the_match_ends(client, player):
    # The LLM holds seat 0 and moves at once; then the human seat has to act, so the match stays open.
    match = services.create_match(
        "santorini", [SeatController("agent", agent_name="scripted"), SeatController("human")], seed=5, host_seat=1
    )
    assert match.status == Match.Status.ACTIVE
    assert AgentCall.objects.filter(match=match).count() == 2  # it places both its workers first
    assert client.get(f"/matches/{match.pk}/transcripts.jsonl").status_code == 403
    first = calls_of(match)[0].event
    assert client.get(panel_url(match, first)).status_code == 403
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 403
    assert client.get("/matches/999999/transcripts.jsonl").status_code == 404
    assert client.get("/matches/999999/events/1/transcript/").status_code == 404


def test_the_transcripts_of_a_private_match_follow_its_access_rule(client, player, django_user_model):
    match = play_llm_vs_random("scripted")
    Match.objects.filter(pk=match.pk).update(private=True)  # as a study round would be
    event = calls_of(match)[0].event
    urls = [f"/matches/{match.pk}/transcripts.jsonl", panel_url(match, event)]
    for url in urls:
        assert client.get(url).status_code == 404, url  # not even announced to outsiders
    client.force_login(django_user_model.objects.create_user("researcher", password="x", is_staff=True))
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_the_transcript_pages_answer_get_only(client, player):
    match = play_llm_vs_random("scripted")
    event = calls_of(match)[0].event
    assert client.post(f"/matches/{match.pk}/transcripts.jsonl").status_code == 405
    assert client.post(panel_url(match, event)).status_code == 405


def test_calls_of_a_rejected_action_are_kept_without_an_event(player):
    match = services.create_match(
        "santorini", [SeatController("human"), SeatController("human")], seed=5, schedule_agents=False
    )
    call = ModelCall("move", [{"role": "user", "content": "hi"}], raw_reply="{}", latency_ms=-3, prompt_tokens=4)
    rows = agent_services.record_calls(
        match_id=match.pk,
        event=None,
        seat=1,
        agent_name="scripted",
        version=0,
        calls=[call, call],
        fallback=False,
        not_applied="your view is out of date",
    )
    assert [r.seq for r in rows] == [1, 2]
    stored = AgentCall.objects.get(match=match, seq=1)
    assert stored.event is None and stored.error == "action not applied: your view is out of date"
    assert stored.latency_ms == 0 and stored.prompt_tokens == 4 and stored.completion_tokens is None


def test_a_vision_seat_sends_the_picture_and_the_transcript_describes_it(player):
    llm_config("seer", player.base_url, vision=True)
    state = create_game("hive").new_initial_state(5)
    turn = agent_services.decide("seer", state.seat_view(0), 1, refusal=refusal_checker(state, 0))
    assert not turn.fallback and len(turn.calls) == 1
    assert player.requests[-1].image_urls[0].startswith("data:image/png;base64,")
    stored = json.dumps(turn.calls[0].request_messages)
    assert "base64" not in stored  # the transcript keeps a description, not the picture
    shown = agent_selectors.shown_messages(turn.calls[0].request_messages)
    assert [m.role for m in shown] == ["system", "user"]
    assert "Available actions" in shown[1].content and "image/png" in shown[1].content


def test_a_study_participant_never_reads_the_agents_transcripts_of_their_own_round(client, player,
                                                                                    django_user_model):
    """The agent's prompts hold its seat's private observation (issue 37, point 2): a study round's transcripts are
    the research team's, even for the participant who played it, and even after it ended."""
    from django.conf import settings

    from gameplay.studies.models import Condition, Participant, ParticipantRound, Study
    from gameplay.web.access import STUDY_SESSION_KEY

    match = play_llm_vs_random("scripted")
    Match.objects.filter(pk=match.pk).update(private=True)
    study = Study.objects.create(slug="s", title="S", game_id="santorini", consent_text="c", instructions="i")
    condition = Condition.objects.create(study=study, key="llm", label="LLM", seats=[], options={})
    participant = Participant.objects.create(study=study, condition=condition)
    ParticipantRound.objects.create(participant=participant, round_index=1, match=match, seat_index=1)
    session = client.session
    session[STUDY_SESSION_KEY] = {str(study.pk): participant.token}
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 200  # the participant does hold the match
    urls = [f"/matches/{match.pk}/transcripts.jsonl", panel_url(match, calls_of(match)[0].event)]
    assert [client.get(url).status_code for url in urls] == [404, 404]
    client.force_login(django_user_model.objects.create_user("researcher", password="x", is_staff=True))
    assert [client.get(url).status_code for url in urls] == [200, 200]


def gnomes_round(number: int, previous: Match | None = None) -> Match:
    match = services.create_match("gnomes", [SeatController("agent", agent_name="random")] * 2, seed=number,
                                  host_seat=None, options={"round": number, "turn_cap": 6})
    if previous is not None:
        Match.objects.filter(pk=match.pk).update(previous_round=previous)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_a_rounds_transcripts_open_only_when_the_last_round_has_ended(client, django_user_model):
    """The five Gnomes rounds share one maze: an earlier round's prompts (the partner's walls) would help in the
    rounds to come, so they stay closed to the public until the game has no round left (issue 37, point 2)."""
    first = gnomes_round(1)
    url = f"/matches/{first.pk}/transcripts.jsonl"
    assert client.get(url).status_code == 403  # round 1 of 5 ended; rounds 2-5 are to come
    second = gnomes_round(2, previous=first)
    assert client.get(url).status_code == 403
    Match.objects.filter(pk=second.pk).update(status=Match.Status.ACTIVE)
    staff = type(client)()
    staff.force_login(django_user_model.objects.create_user("researcher", password="x", is_staff=True))
    assert staff.get(url).status_code == 200  # the research team reads them at any time
    last = gnomes_round(5)  # the last round: nothing is left to play
    assert client.get(f"/matches/{last.pk}/transcripts.jsonl").status_code == 200
    assert client.get(f"/matches/{gnomes_round(3).pk}/transcripts.jsonl").status_code == 403
