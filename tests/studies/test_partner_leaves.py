"""A participant leaves a shared round (issue 16.1): presence says so, and the study's rule applies.

Presence comes from the match sockets' beats (gameplay.web.presence); here the beats are written directly and the
presence clock is moved forward instead of sleeping through PRESENCE_LEFT_AFTER_SECONDS. The browser journey
with two real pages is tests/browser/test_presence_journeys.py.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from gameplay.models import Event, Match
from gameplay.studies.models import ParticipantRound, Study
from gameplay.web import presence
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    eager_celery,
    make_study,
    participant_url,
    people_condition,
)
from tests.studies.pairing_support import arrive

pytestmark = pytest.mark.django_db

HUMAN = [people_condition("human", chat=True)]
LEFT_AFTER = settings.PRESENCE_LEFT_AFTER_SECONDS


@pytest.fixture
def clock(monkeypatch):
    """The presence clock, moved by hand: ``clock.now`` seconds since the epoch."""

    class Clock:
        now = presence._clock()

    monkeypatch.setattr(presence, "_clock", lambda: Clock.now)
    return Clock


def pair(**study_fields):
    study = make_study(conditions=HUMAN, turn_cap=50, **study_fields)
    stays_client, stays = arrive(study, "stays")
    leaves_client, leaves = arrive(study, "leaves")
    stays_client.post(participant_url("wait_status", stays, n=1), HTTP_HX_REQUEST="true")
    stays_round = ParticipantRound.objects.select_related("match").get(participant=stays)
    leaves_round = ParticipantRound.objects.get(participant=leaves)
    seats = {s.index: s for s in stays_round.match.seats.all()}
    return stays_client, stays, stays_round, leaves_client, leaves, leaves_round, seats


def partner_left(client, participant):
    return client.post(participant_url("round_continue", participant, n=1), {"partner_left": "1"},
                       HTTP_HX_REQUEST="true")


def test_the_round_ends_when_the_partner_left_and_the_study_says_end(clock):
    client, stays, stays_round, _, leaves, leaves_round, seats = pair(partner_left_action=Study.PartnerLeft.END)
    status_url = participant_url("round_status", stays, n=1)
    for seat in seats.values():
        presence.beat(seat)
    assert "partner has left" not in client.get(status_url).content.decode()
    # Refused while the partner is there: nothing changes.
    partner_left(client, stays)
    stays_round.match.refresh_from_db()
    assert stays_round.match.status == Match.Status.ACTIVE

    presence.mark_gone(seats[leaves_round.seat_index])  # their page closed
    clock.now += LEFT_AFTER / 2
    assert "partner has left" not in client.get(status_url).content.decode()  # could be a reload
    partner_left(client, stays)
    stays_round.match.refresh_from_db()
    assert stays_round.match.status == Match.Status.ACTIVE

    clock.now += LEFT_AFTER / 2 + 1
    page = client.get(status_url).content.decode()
    assert "partner has left" in page and 'hx-trigger="load"' in page  # the page applies the rule by itself
    response = partner_left(client, stays)
    assert response.status_code == 286  # the Continue area, final
    body = response.content.decode()
    assert "Your partner left the game, so this round ended." in body and "Continue to round 2" in body
    stays_round.refresh_from_db()
    leaves_round.refresh_from_db()
    assert stays_round.match.status == Match.Status.ABORTED
    assert (stays_round.departure, leaves_round.departure) == ("partner-left-end", "left")
    stays.refresh_from_db()
    assert stays.round_index == 0  # still on round 1 until they press Continue
    onward = client.post(participant_url("round_continue", stays, n=1))["Location"]
    assert onward in (participant_url("wait", stays, n=2), participant_url("round", stays, n=2))
    stays.refresh_from_db()
    assert stays.round_index == 1


def test_the_fallback_agent_takes_the_seat_when_the_study_says_agent(clock, django_capture_on_commit_callbacks):
    client, stays, stays_round, leaves_client, leaves, leaves_round, seats = pair(
        partner_left_action=Study.PartnerLeft.AGENT, pairing_fallback_agent="gnomes-comm"
    )
    gone_seat = seats[leaves_round.seat_index]
    presence.beat(seats[stays_round.seat_index])
    presence.beat(gone_seat)
    clock.now += settings.PRESENCE_TIMEOUT_SECONDS + LEFT_AFTER  # their beats stopped (a lost connection)
    presence.beat(seats[stays_round.seat_index])
    with django_capture_on_commit_callbacks(execute=True):
        response = partner_left(client, stays)
    assert response.status_code == 200
    assert "the computer agent gnomes-comm plays their seat" in response.content.decode()
    gone_seat.refresh_from_db()
    assert gone_seat.is_agent and gone_seat.agent_name == "gnomes-comm"
    taken = Event.objects.get(match=stays_round.match, kind=Event.Kind.SEAT)
    assert taken.seat == gone_seat.index and taken.payload["agent"] == "gnomes-comm"
    stays_round.refresh_from_db()
    leaves_round.refresh_from_db()
    assert stays_round.match.status == Match.Status.ACTIVE  # the round goes on
    assert (stays_round.departure, leaves_round.departure) == ("partner-left-agent", "left")
    # Asking again changes nothing.
    partner_left(client, stays)
    assert Event.objects.filter(match=stays_round.match, kind=Event.Kind.SEAT).count() == 1

    # The one who left comes back: their round is over for them, and they may go on.
    status = leaves_client.get(participant_url("round_status", leaves, n=1))
    assert status.status_code == 286
    assert "it went on without you" in status.content.decode()
    leaves_client.post(participant_url("round_continue", leaves, n=1))
    leaves.refresh_from_db()
    assert leaves.round_index == 1


def test_a_partner_who_never_opened_the_round_has_left_after_the_same_time(clock):
    client, stays, stays_round, *_ = pair(partner_left_action=Study.PartnerLeft.END)
    presence.beat(stays_round.match.seats.get(index=stays_round.seat_index))
    status_url = participant_url("round_status", stays, n=1)
    assert "partner has left" not in client.get(status_url).content.decode()
    # From the wall clock, not the fixture's start: the round's start is the match's creation time, which on a loaded
    # machine can come seconds after the fixture read the clock.
    clock.now = max(clock.now, time.time()) + LEFT_AFTER + 1
    assert "partner has left" in client.get(status_url).content.decode()


def test_a_study_that_lets_an_agent_take_over_must_name_one():
    from gameplay.studies.validation import study_errors

    data = {"game_id": "gnomes", "rounds": [{"round": 1}], "likert_items": [], "likert_scale": 5,
            "pairing_timeout_action": "end", "pairing_fallback_agent": "", "partner_left_action": "agent"}
    conditions = [{"key": "h", "seats": [{"kind": "participant"}] * 2, "options": {}}]
    errors = study_errors(data, conditions)
    assert any("takes over the seat" in m for m in errors.get("pairing_fallback_agent", []))


def test_an_agent_that_can_no_longer_play_ends_the_round_instead(clock):
    """The fallback agent's configuration went away after the study was checked: the round ends rather than
    keep the one who stays waiting (their page would otherwise ask again and again)."""
    client, stays, stays_round, _, _, leaves_round, seats = pair(
        partner_left_action=Study.PartnerLeft.AGENT, pairing_fallback_agent="gnomes-comm"
    )
    Study.objects.filter(pk=stays.study_id).update(pairing_fallback_agent="no-such-agent")
    stays.study.refresh_from_db()
    presence.mark_gone(seats[leaves_round.seat_index])
    clock.now += LEFT_AFTER + 1
    presence.beat(seats[stays_round.seat_index])
    response = partner_left(client, stays)
    assert "Your partner left the game, so this round ended." in response.content.decode()
    stays_round.refresh_from_db()
    assert stays_round.match.status == Match.Status.ABORTED and stays_round.departure == "partner-left-end"
    assert not Event.objects.filter(match=stays_round.match, kind=Event.Kind.SEAT).exists()
