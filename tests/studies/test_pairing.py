"""The waiting room of the human-partner condition: pairing arrivals, presence, and the configured timeout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from gameplay.models import Match
from gameplay.studies import pairing
from gameplay.studies.models import PairingTicket, Participant, ParticipantRound, Study
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    consent,
    eager_celery,
    make_study,
    participant_url,
    people_condition,
    play_out,
)
from tests.studies.pairing_support import HUMAN, age_ticket, arrive

pytestmark = pytest.mark.django_db


class TestPairing:
    def test_two_arrivals_are_paired_into_one_match_with_seats_0_and_1(self):
        study = make_study(conditions=HUMAN)
        first_client, first = arrive(study, "first")
        status = first_client.post(participant_url("wait_status", first, n=1), HTTP_HX_REQUEST="true")
        assert status.status_code == 200 and "HX-Redirect" not in status  # nobody else yet
        second_client, second = arrive(study, "second")  # the second arrival's instructions POST pairs them
        assert second_client.get(participant_url("wait", second, n=1))["Location"] == participant_url(
            "round", second, n=1
        )
        assert second_client.get(participant_url("resume", second))["Location"] == participant_url(
            "round", second, n=1
        )
        status = first_client.post(participant_url("wait_status", first, n=1), HTTP_HX_REQUEST="true")
        assert status["HX-Redirect"] == participant_url("round", first, n=1)

        mine, theirs = ParticipantRound.objects.get(participant=first), ParticipantRound.objects.get(participant=second)
        assert mine.match_id == theirs.match_id and Match.objects.count() == 1
        assert (mine.seat_index, theirs.seat_index) == (0, 1)  # the earlier arrival takes the participant seat
        assert (mine.partner_participant, theirs.partner_participant) == (second, first)
        assert mine.partner_agent == theirs.partner_agent == ""
        assert [s.controller for s in mine.match.seats.order_by("index")] == ["human", "human"]
        assert set(PairingTicket.objects.values_list("outcome", flat=True)) == {"paired"}
        assert PairingTicket.objects.filter(resolved_at__isnull=True).count() == 0
        # Each sees the same match from their own seat, with the chat of this condition.
        for client, participant, seat in ((first_client, first, 0), (second_client, second, 1)):
            html = client.get(participant_url("round", participant, n=1)).content.decode()
            token = mine.match.seats.get(index=seat).token
            assert f"/ws/play/{token}/" in html and 'id="chat-text"' in html and "another participant" in html

    def test_pairs_form_per_round_and_a_finished_pair_can_meet_again(self):
        study = make_study(conditions=HUMAN, turn_cap=1)
        (c1, p1), (c2, p2) = arrive(study, "a"), arrive(study, "b")
        c1.get(participant_url("wait", p1, n=1))
        round1 = ParticipantRound.objects.get(participant=p1, round_index=0)
        play_out(round1)  # one move ends a round with turn_cap 1
        # This time the second seat of round 1 comes first and waits; the other's Continue pairs them at once.
        for client, participant, page in ((c2, p2, "wait"), (c1, p1, "round")):
            response = client.post(participant_url("round_continue", participant, n=1))
            assert response["Location"] == participant_url(page, participant, n=2)
            client.get(response["Location"])
        round2 = ParticipantRound.objects.get(participant=p2, round_index=1)
        assert round2.match_id != round1.match_id and round2.seat_index == 0  # p2 arrived first this time
        assert ParticipantRound.objects.get(participant=p1, round_index=1).match_id == round2.match_id

    def test_people_in_other_conditions_or_rounds_are_not_paired(self):
        conditions = HUMAN + [people_condition("human2")]
        study = make_study(conditions=conditions, assignment=Study.Assignment.URL)
        a = Client()
        pa = consent(a, study, condition="human")
        b = Client()
        pb = consent(b, study, condition="human2")
        for client, participant in ((a, pa), (b, pb)):
            client.post(participant_url("instructions", participant))
            client.get(participant_url("wait", participant, n=1))
        assert ParticipantRound.objects.count() == 0
        assert PairingTicket.objects.filter(resolved_at__isnull=True).count() == 2

    def test_someone_who_left_the_waiting_page_is_not_paired(self):
        study = make_study(conditions=HUMAN)
        _, gone = arrive(study, "gone")
        Participant.objects.filter(pk=gone.pk).update(
            last_seen_at=timezone.now() - timedelta(seconds=pairing.WAITING_PRESENCE_S + 5)
        )
        client, here = arrive(study, "here")
        assert client.post(participant_url("wait_status", here, n=1), HTTP_HX_REQUEST="true").status_code == 200
        assert ParticipantRound.objects.count() == 0

    def test_the_waiting_page_states_the_timeout_and_what_happens_then(self):
        study = make_study(conditions=HUMAN, pairing_timeout_s=90)
        client, participant = arrive(study, "solo")
        html = client.get(participant_url("wait", participant, n=1)).content.decode()
        assert "90 seconds" in html and "computer partner" in html and 'hx-trigger="every 2s"' in html
        # The poll pairs people, so it is a POST carrying the CSRF token; a GET is refused and changes nothing.
        status_url = participant_url("wait_status", participant, n=1)
        assert f'hx-post="{status_url}"' in html and "X-CSRFToken" in html
        assert client.get(status_url).status_code == 405
        # Without scripts the "Check again" button posts the same form and comes back to the page.
        assert client.post(status_url)["Location"] == participant_url("wait", participant, n=1)
        Study.objects.filter(pk=study.pk).update(pairing_timeout_action=Study.PairingTimeout.END)
        html = client.get(participant_url("wait", participant, n=1)).content.decode()
        assert "the study ends here for you" in html


class TestTimeout:
    def test_a_lone_arrival_plays_with_the_fallback_agent_after_the_timeout(self):
        study = make_study(conditions=HUMAN, pairing_timeout_s=120, pairing_fallback_agent="gnomes-mute")
        client, participant = arrive(study, "solo")
        age_ticket(participant, 119)
        assert "HX-Redirect" not in client.post(participant_url("wait_status", participant, n=1),
                                               HTTP_HX_REQUEST="true")
        age_ticket(participant, 121)
        status = client.post(participant_url("wait_status", participant, n=1), HTTP_HX_REQUEST="true")
        assert status["HX-Redirect"] == participant_url("round", participant, n=1)
        current = ParticipantRound.objects.get(participant=participant)
        assert (current.partner_agent, current.partner_participant, current.seat_index) == ("gnomes-mute", None, 0)
        assert [(s.controller, s.agent_name) for s in current.match.seats.order_by("index")] == [
            ("human", ""), ("agent", "gnomes-mute"),
        ]
        assert PairingTicket.objects.get(participant=participant).outcome == "timeout-agent"
        assert client.get(participant_url("round", participant, n=1)).status_code == 200

    def test_an_expired_ticket_is_not_paired_with_a_newcomer(self):
        study = make_study(conditions=HUMAN, pairing_timeout_s=120)
        old_client, old = arrive(study, "old")
        age_ticket(old, 200)
        _, new = arrive(study, "new")
        assert not ParticipantRound.objects.filter(participant=new).exists()
        old_client.post(participant_url("wait_status", old, n=1), HTTP_HX_REQUEST="true")
        assert ParticipantRound.objects.get(participant=old).partner_agent == "gnomes-comm"

    def test_with_action_end_the_participant_is_ended_politely(self):
        study = make_study(conditions=HUMAN, pairing_timeout_action=Study.PairingTimeout.END)
        client, participant = arrive(study, "solo")
        age_ticket(participant, study.pairing_timeout_s + 1)
        status = client.post(participant_url("wait_status", participant, n=1), HTTP_HX_REQUEST="true")
        assert status["HX-Redirect"] == participant_url("ended", participant)
        participant.refresh_from_db()
        assert participant.step == Participant.Step.ENDED
        assert PairingTicket.objects.get(participant=participant).outcome == "timeout-end"
        assert ParticipantRound.objects.count() == 0
        page = client.get(participant_url("ended", participant))
        assert page.status_code == 200 and "could not find a partner" in page.content.decode()
        # Ended is final: the study link brings them back here, never to a new start.
        assert client.get(participant_url("round", participant, n=1))["Location"] == participant_url(
            "ended", participant
        )
