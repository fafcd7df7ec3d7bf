"""services.apply_verdict and the verdict_awaited signal: the platform part of judged dialogue games (a debate)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.models import Event, Match
from gameplay.reads.selectors import replay_frames, state_of
from gameplay.signals import verdict_awaited
from gameplay.writes import services
from gameplay.writes.services import SeatController
from gameplay.writes.watchdog import matches_awaiting_verdict, requeue_awaited_verdicts


def human_debate(**options) -> Match:
    return services.create_match("debate", [SeatController("human"), SeatController("human")], seed=3,
                                 options={"topic": 0, "rounds_per_side": 1, **options})


def argue_all(match: Match) -> Match:
    while True:
        match.refresh_from_db()
        state = state_of(match)
        if not state.current_seats():
            return match
        seat = state.current_seats()[0]
        services.submit_action(match.pk, seat, "argue:logos", text="Because 2 eggs give energy.",
                               expected_version=match.version)


@pytest.fixture
def heard():
    calls = []

    def listener(sender, match_id, **kwargs):
        calls.append(match_id)

    verdict_awaited.connect(listener, dispatch_uid="test-verdict-heard")
    yield calls
    verdict_awaited.disconnect(dispatch_uid="test-verdict-heard")


@pytest.fixture
def no_judge(settings, monkeypatch):
    """Keep the agents_app receiver from judging at once, so the awaiting state can be examined."""
    from agents_app import tasks

    monkeypatch.setattr(tasks.judge_match, "delay", lambda match_id: None)
    settings.AGENT_TURNS_INLINE = True


@pytest.mark.django_db(transaction=True)
def test_last_argument_leaves_match_awaiting_and_announces_it(heard, no_judge):
    match = argue_all(human_debate())
    state = state_of(match)
    assert state.awaiting_verdict() and match.status == Match.Status.ACTIVE
    assert heard == [match.pk]


@pytest.mark.django_db(transaction=True)
def test_apply_verdict_finishes_the_match_and_logs_the_judge(no_judge):
    match = argue_all(human_debate())
    finished = services.apply_verdict(match.pk, "against", "rule", expected_version=match.version)
    assert finished.status == Match.Status.FINISHED
    assert finished.scores == [0.0, 1.0] and finished.winner == 1
    assert finished.final_measures[1]["won"] is True
    event = Event.objects.get(match=finished, kind=Event.Kind.ACTION, payload__action_id="verdict:against")
    assert event.seat == 2 and event.payload["label"].startswith("The judge decided: against")
    assert Event.objects.filter(match=finished, kind=Event.Kind.END).exists()
    frames = replay_frames(finished)  # the platform's replay rebuilds the verdict from the log
    assert frames[-2].observation.data["verdict"] == "against"


@pytest.mark.django_db(transaction=True)
def test_apply_verdict_refuses_a_stale_version(no_judge):
    match = argue_all(human_debate())
    with pytest.raises(services.ActionRejected, match="moved on"):
        services.apply_verdict(match.pk, "for", "rule", expected_version=match.version - 1)
    services.apply_verdict(match.pk, "for", "rule", expected_version=match.version)
    with pytest.raises(services.ActionRejected):  # a second judge task racing the first
        services.apply_verdict(match.pk, "against", "rule", expected_version=match.version)
    match.refresh_from_db()
    assert match.scores == [1.0, 0.0]


@pytest.mark.django_db(transaction=True)
def test_apply_verdict_refused_when_none_is_awaited(no_judge):
    match = human_debate()
    with pytest.raises(services.ActionRejected, match="no verdict is awaited"):
        services.apply_verdict(match.pk, "for", "rule", expected_version=match.version)
    match = argue_all(match)
    with pytest.raises(services.ActionRejected, match="not a verdict"):
        services.apply_verdict(match.pk, "both", "rule", expected_version=match.version)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_watchdog_requeues_a_match_left_waiting(heard, no_judge):
    match = argue_all(human_debate())
    heard.clear()
    later = timezone.now() + timedelta(minutes=10)
    assert [m.pk for m in matches_awaiting_verdict(later, 60)] == [match.pk]
    assert requeue_awaited_verdicts(later, 60) == 1
    assert heard == [match.pk]
    assert requeue_awaited_verdicts(later, 60) == 0  # once per version per deadline
    services.apply_verdict(match.pk, "draw", "rule", expected_version=match.version)
    assert matches_awaiting_verdict(later + timedelta(minutes=10), 60) == []


@pytest.mark.django_db(transaction=True)
def test_play_match_debate_is_deterministic_and_the_rule_judges(settings):
    import io
    import json

    from django.core.management import call_command

    settings.DIALOGUE_JUDGE_AGENT = ""
    results = []
    for _ in range(2):
        buf = io.StringIO()
        call_command("play_match", game="debate", agents="random,random", seed=7, json=True, stdout=buf)
        results.append(json.loads(buf.getvalue().splitlines()[-1]))
    first, second = results
    assert first["status"] == "finished"
    assert first["moves"][-1].startswith("2:verdict:")  # the judge's pseudo seat, after 4 arguments
    assert len(first["moves"]) == 5
    assert {k: first[k] for k in ("scores", "winner", "moves")} == {k: second[k] for k in ("scores", "winner", "moves")}


@pytest.mark.django_db(transaction=True)
def test_pages_show_the_wait_for_the_judge_then_the_verdict_and_its_replay(client, no_judge):
    match = argue_all(human_debate())
    token = match.seats.get(index=1).token
    waiting = client.get(f"/play/{token}/").content.decode()
    assert "Waiting for the judge" in waiting and "Waiting for the judge…" in waiting
    assert 'class="debate-form"' not in waiting
    services.apply_verdict(match.pk, "for", "rule", expected_version=match.version)
    done = client.get(f"/play/{token}/").content.decode()
    assert "Verdict: For wins" in done and "by the game&#x27;s rule" in done
    replay = client.get(f"/matches/{match.pk}/replay/?step=3").content.decode()
    assert "The judge decided: for (by the game&#x27;s rule)" in replay
    assert ": The judge decided" not in replay  # no seat name (nor an empty one) before the judge's verdict
