"""What follows a wait that timed out (Study.pairing_after_timeout), what the participant is told before and while
waiting, and that the waiting room pairs everyone it can when many arrive together (issue 38, point 5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from gameplay.studies import measures
from gameplay.studies.models import PairingTicket, ParticipantRound, Study
from gameplay.studies.presets import PresetError, load_preset
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    agent_condition,
    consent,
    eager_celery,
    make_study,
    participant_url,
    people_condition,
    play_out,
)
from tests.studies.pairing_support import HUMAN, age_ticket, arrive

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def time_out_into_the_agent(study: Study, pid: str):
    """A lone participant whose round-1 wait times out: round 1 is played with the fallback agent, to its end."""
    client, participant = arrive(study, pid)
    age_ticket(participant, study.pairing_timeout_s + 1)
    status = client.post(participant_url("wait_status", participant, n=1), **HX)
    assert status["HX-Redirect"] == participant_url("round", participant, n=1)
    play_out(ParticipantRound.objects.get(participant=participant, round_index=0))
    return client, participant


def seats_of(participant, round_index: int) -> list[tuple[str, str]]:
    match = ParticipantRound.objects.get(participant=participant, round_index=round_index).match
    return [(s.controller, s.agent_name) for s in match.seats.order_by("index")]


def test_with_agent_the_later_rounds_start_at_once_with_the_fallback_agent_and_no_ticket():
    study = make_study(conditions=HUMAN, rounds=3)
    assert study.pairing_after_timeout == Study.AfterTimeout.AGENT  # the model's default
    client, participant = time_out_into_the_agent(study, "solo")
    # Told before: the round page's Continue area says the next round needs no wait.
    area = client.get(participant_url("round_status", participant, n=1), **HX).content.decode()
    assert "Round 2 starts at once, with the computer partner again." in area and "wait at most" not in area
    for n in (1, 2):
        response = client.post(participant_url("round_continue", participant, n=n))
        assert response["Location"] == participant_url("round", participant, n=n + 1)  # never the waiting page
        assert seats_of(participant, n) == [("human", ""), ("agent", "gnomes-comm")]
        if n == 1:
            play_out(ParticipantRound.objects.get(participant=participant, round_index=1))
    assert list(PairingTicket.objects.values_list("round_index", "outcome")) == [(0, "timeout-agent")]
    # The exports tell these rounds apart from the condition as assigned: the agent sits in a participant's seat.
    rows = [row for row in measures.round_rows(study) if row["round"] in (1, 2, 3)]
    assert len(rows) == 3 and [row["as_assigned"] for row in rows] == [False, False, False]
    assert {row["partner_kind"] for row in rows} == {"agent"}


def test_with_wait_the_participant_waits_again_and_is_told_for_how_long():
    study = make_study(conditions=HUMAN, rounds=2, pairing_after_timeout=Study.AfterTimeout.WAIT)
    client, participant = time_out_into_the_agent(study, "solo")
    area = client.get(participant_url("round_status", participant, n=1), **HX).content.decode()
    assert "Round 2 starts once we have found your partner: you wait at most 2 minutes." in area
    response = client.post(participant_url("round_continue", participant, n=1))
    assert response["Location"] == participant_url("wait", participant, n=2)
    html = client.get(response["Location"]).content.decode()
    # Before the wait: the limit in words; while waiting: a countdown the poll refreshes and a spoken summary.
    assert "You wait at most 2 minutes</strong> (120 seconds)" in html
    assert 'role="timer"' in html and 'data-seconds-left="120"' in html and ">2:00</span> left at most" in html
    assert 'id="wait-announce"' in html and 'aria-live="polite"' in html and "js/wait_countdown.js" in html
    assert PairingTicket.objects.get(participant=participant, round_index=1).resolved_at is None
    age_ticket_of_round(participant, 1, 45)
    status = client.post(participant_url("wait_status", participant, n=2), **HX).content.decode()
    assert 'data-seconds-left="75"' in status and ">1:15</span>" in status
    age_ticket_of_round(participant, 1, 121)
    status = client.post(participant_url("wait_status", participant, n=2), **HX)
    assert status["HX-Redirect"] == participant_url("round", participant, n=2)
    assert PairingTicket.objects.get(participant=participant, round_index=1).outcome == "timeout-agent"


def age_ticket_of_round(participant, round_index: int, seconds: int) -> None:
    PairingTicket.objects.filter(participant=participant, round_index=round_index).update(
        created_at=timezone.now() - timedelta(seconds=seconds)
    )


@pytest.mark.parametrize(
    ("after", "said"),
    [
        (Study.AfterTimeout.AGENT, "and your later rounds too, without waiting again"),
        (Study.AfterTimeout.WAIT, "and before the next round we look for a partner again"),
    ],
)
def test_the_instructions_say_how_long_the_waits_are_and_what_follows(after, said):
    study = make_study(conditions=HUMAN, pairing_timeout_s=90, pairing_after_timeout=after)
    client = Client()
    participant = consent(client, study, PROLIFIC_PID="reader")
    html = client.get(participant_url("instructions", participant)).content.decode()
    assert "at most 1 minute 30 seconds" in html and said in html


def test_many_arrivals_at_once_are_all_paired_round_after_round():
    """Seven arrivals of a two-person condition: three tables and one waiting; when the three tables end together,
    their six people meet again in round 2 whatever order they continue in."""
    study = make_study(conditions=HUMAN, rounds=2, turn_cap=1)
    people = [arrive(study, f"p{i}") for i in range(7)]
    rounds = ParticipantRound.objects.filter(round_index=0)
    assert rounds.count() == 6 and len({r.match_id for r in rounds}) == 3
    assert PairingTicket.objects.filter(round_index=0, resolved_at__isnull=True).count() == 1
    for r in rounds.filter(seat_index=0):
        play_out(r)  # turn_cap 1: seat 0's move ends the round
    # The second seats continue first, then the first seats: every one of them finds a partner at once or waits
    # for the next to come.
    playing = sorted((p for p in people if p[1].rounds.exists()), key=lambda p: -p[1].rounds.get().seat_index)
    for client, participant in playing:
        client.post(participant_url("round_continue", participant, n=1))
    second = ParticipantRound.objects.filter(round_index=1)
    assert second.count() == 6 and len({r.match_id for r in second}) == 3
    assert not PairingTicket.objects.filter(round_index=1, resolved_at__isnull=True).exists()


def test_a_preset_sets_what_follows_a_timeout():
    conditions = [{**people_condition("h"), "label": "Pairs"}, {**agent_condition("a", "gnomes-mute"), "label": "A"}]
    preset = {
        "slug": "after-timeout", "title": "t", "game_id": "gnomes", "rounds": [{"round": 1}],
        "consent_text": "c", "instructions": "i", "pairing_fallback_agent": "gnomes-comm",
        "pairing_after_timeout": "wait", "conditions": conditions,
    }
    study, _ = load_preset(preset)
    assert study.pairing_after_timeout == "wait"
    with pytest.raises(PresetError, match="pairing_after_timeout"):
        load_preset({**preset, "pairing_after_timeout": "sometimes"})
