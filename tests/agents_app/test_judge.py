"""The judge of judged dialogue games (agents_app.judging): a model through the one client stack, else the rule."""

from __future__ import annotations

import pytest

from agents_app.judging import judge_match
from agents_app.models import AgentCall
from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401  (eager_celery is a fixture)
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

FOR_TEXT = "Breakfast matters because 9 in 10 pupils focus better after it."
AGAINST_TEXT = "Many people skip it and feel fine."  # no reason, no example, no shared word: For wins by the rule


def debate_to_the_judge(monkeypatch) -> Match:
    """Two people argue one round each; the judge is kept from running until the test calls it."""
    from agents_app import tasks

    monkeypatch.setattr(tasks.judge_match, "delay", lambda match_id: None)
    match = services.create_match("debate", [SeatController("human"), SeatController("human")], seed=1,
                                  options={"topic": 0, "rounds_per_side": 1})
    match = services.submit_action(match.pk, 0, "argue:logos", text=FOR_TEXT, expected_version=match.version)
    match = services.submit_action(match.pk, 1, "argue:pathos", text=AGAINST_TEXT, expected_version=match.version)
    assert state_of(match).awaiting_verdict()
    return match


def verdict_event(match: Match) -> Event:
    return Event.objects.get(match=match, kind=Event.Kind.ACTION, payload__action_id__startswith="verdict:")


def test_a_valid_verdict_from_the_judge_model_is_applied_and_its_call_stored(settings, monkeypatch):
    match = debate_to_the_judge(monkeypatch)
    with scripted_openai_server([ScriptedReply.text({"verdict": "against", "reason": "More vivid."})]) as server:
        llm_config("debate-judge", server.base_url)
        settings.DIALOGUE_JUDGE_AGENT = "debate-judge"
        assert judge_match(match.pk) == "against"
        prompt = server.requests[0].prompt_text
    assert FOR_TEXT in prompt and AGAINST_TEXT in prompt
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.scores == [0.0, 1.0]
    event = verdict_event(match)
    assert event.payload["judge"] == "debate-judge" and event.payload["judge_reason"] == "More vivid."
    call = AgentCall.objects.get(match=match)
    assert call.purpose == "judge" and call.event_id == event.pk and call.parsed_action == "against"
    assert call.agent_name == "debate-judge" and not call.fallback


def test_garbage_replies_get_one_correction_then_the_rule_decides(settings, monkeypatch):
    match = debate_to_the_judge(monkeypatch)
    with scripted_openai_server(["I think For did well", ScriptedReply.text({"verdict": "maybe"})]) as server:
        llm_config("debate-judge", server.base_url)
        settings.DIALOGUE_JUDGE_AGENT = "debate-judge"
        assert judge_match(match.pk) == "for"
        assert len(server.requests) == 2  # the request and one correction
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.scores == [1.0, 0.0]
    event = verdict_event(match)
    assert event.payload["judge"] == "rule" and "no valid verdict" in event.payload["fallback_reason"]
    calls = list(AgentCall.objects.filter(match=match).order_by("seq"))
    assert [c.purpose for c in calls] == ["judge", "judge"] and all(c.fallback for c in calls)
    assert all("invalid verdict" in c.error for c in calls)


def test_an_endpoint_that_is_down_leaves_the_verdict_to_the_rule(settings, monkeypatch):
    match = debate_to_the_judge(monkeypatch)
    llm_config("debate-judge", "http://127.0.0.1:9/v1", timeout_s=2)  # nothing listens on the discard port
    settings.DIALOGUE_JUDGE_AGENT = "debate-judge"
    assert judge_match(match.pk) == "for"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert verdict_event(match).payload["judge"] == "rule"
    call = AgentCall.objects.get(match=match)
    assert call.purpose == "judge" and "connection error" in call.error


def test_without_a_judge_configured_the_rule_decides_and_a_second_task_does_nothing(settings, monkeypatch):
    match = debate_to_the_judge(monkeypatch)
    settings.DIALOGUE_JUDGE_AGENT = ""
    assert judge_match(match.pk) == "for"
    assert judge_match(match.pk) is None  # idempotent: nothing awaited any more
    assert verdict_event(match).payload["fallback_reason"].startswith("no judge model configured")
    assert not AgentCall.objects.filter(match=match).exists()


def test_the_last_argument_of_two_agents_gets_the_rule_verdict_through_the_signal(settings):
    settings.DIALOGUE_JUDGE_AGENT = ""
    match = services.create_match("debate", [SeatController("agent", agent_name="random")] * 2, seed=7,
                                  host_seat=None)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert verdict_event(match).payload["judge"] == "rule"


def test_two_judge_tasks_racing_apply_one_verdict_and_keep_the_losers_calls(settings, monkeypatch):
    from agents_app.agents.base import ModelCall
    from agents_app.agents.llm import judge

    match = debate_to_the_judge(monkeypatch)
    llm_config("debate-judge", "http://127.0.0.1:9/v1")
    settings.DIALOGUE_JUDGE_AGENT = "debate-judge"

    def slow_judge(settings_, text, verdicts, **kwargs):
        # While this task waits for its model, another one applies its verdict first.
        services.apply_verdict(match.pk, "draw", "rule", expected_version=match.version)
        return judge.JudgeResult("against", (ModelCall("judge", [], raw_reply='{"verdict": "against"}'),))

    monkeypatch.setattr(judge, "ask_judge", slow_judge)
    assert judge_match(match.pk) is None
    match.refresh_from_db()
    assert match.scores == [0.5, 0.5]  # the first verdict stands
    call = AgentCall.objects.get(match=match)
    assert call.event is None and "verdict not applied" in call.error
