"""Who may open which participant page, what is (not) stored about a participant, dropouts, and the
per-seat observation.json endpoint for programmatic players."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gameplay.models import Match
from gameplay.reads.selectors import state_of
from gameplay.studies import selectors
from gameplay.studies.models import Participant
from gameplay.writes import services as match_services
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    PROLIFIC,
    consent,
    eager_celery,
    make_study,
    participant_url,
    started,
)

pytestmark = pytest.mark.django_db


class TestBinding:
    def test_another_participant_cannot_open_my_pages_or_my_round(self):
        study = make_study()
        mine, theirs = Client(), Client()
        me = started(mine, study, PROLIFIC_PID="me")
        them = started(theirs, study, PROLIFIC_PID="them")
        for name, kwargs in (("round", {"n": 1}), ("round_status", {"n": 1}), ("instructions", {}),
                             ("survey", {}), ("complete", {}), ("resume", {}), ("wait", {"n": 1})):
            response = theirs.get(participant_url(name, me, **kwargs))
            assert response.status_code == 403, name
            assert participant_url("round", them, n=1) in response.content.decode()  # their own way back
        assert theirs.post(participant_url("round_continue", me, n=1)).status_code == 403
        # The refused requests changed nothing and revealed nothing of my round.
        seat_token = me.rounds.get().match.seats.get(index=0).token
        assert seat_token not in theirs.get(participant_url("round", me, n=1)).content.decode()
        assert mine.get(participant_url("round", me, n=1)).status_code == 200

    def test_a_fresh_browser_opening_a_participant_link_takes_it(self):
        study = make_study()
        me = started(Client(), study)
        other_device = Client()
        assert other_device.get(participant_url("round", me, n=1)).status_code == 200
        assert other_device.session["study_participants"] == {str(study.pk): me.token}
        # That browser now holds this participant: the study link resumes it rather than starting anew.
        response = other_device.get(reverse("study:entry", args=[study.slug]))
        assert response["Location"] == participant_url("round", me, n=1)

    def test_one_browser_cannot_consent_twice(self):
        study = make_study()
        client = Client()
        first = consent(client, study)
        assert consent(client, study) == first
        assert Participant.objects.count() == 1

    def test_unknown_tokens_and_studies_are_404(self):
        study = make_study()
        client = Client()
        me = started(client, study)
        bad = reverse("study:round", kwargs={"slug": study.slug, "token": "not-a-token", "n": 1})
        assert client.get(bad).status_code == 404
        wrong_study = reverse("study:round", kwargs={"slug": "no-such-study", "token": me.token, "n": 1})
        assert client.get(wrong_study).status_code == 404
        assert client.get(reverse("study:entry", args=["no-such-study"])).status_code == 404
        other = make_study("other")
        assert client.get(reverse("study:resume", kwargs={"slug": other.slug, "token": me.token})).status_code == 404

    def test_an_htmx_poll_on_a_wrong_step_redirects_the_whole_page(self):
        study = make_study()
        client = Client()
        me = consent(client, study)
        response = client.get(participant_url("round_status", me, n=1), HTTP_HX_REQUEST="true")
        assert response["HX-Redirect"] == participant_url("instructions", me)


class TestWhatIsStored:
    def test_no_ip_or_user_agent_is_kept(self):
        study = make_study()
        client = Client(REMOTE_ADDR="203.0.113.77", HTTP_USER_AGENT="SecretBrowser/9.9 (Phone; Model X)")
        participant = started(client, study, **PROLIFIC)
        client.get(participant_url("round", participant, n=1))
        row = json.dumps(list(Participant.objects.filter(pk=participant.pk).values()), default=str)
        for secret in ("203.0.113.77", "SecretBrowser", "Model X"):
            assert secret not in row
        configured = {"prolific_pid", "prolific_study_id", "prolific_session_id"}
        identifying = {f.name for f in Participant._meta.get_fields() if "ip" in f.name.split("_")
                       or "agent" in f.name or "email" in f.name or "name" in f.name}
        assert identifying == set() and configured <= {f.name for f in Participant._meta.get_fields()}

    def test_dropout_is_computed_from_last_seen_and_names_the_step(self):
        study = make_study(dropout_after_s=600)
        participant = started(Client(), study)
        later = timezone.now() + timedelta(seconds=601)
        assert not selectors.is_dropped(participant)
        assert selectors.is_dropped(participant, now=later)
        assert selectors.dropout_step(participant, now=later) == "rounds:1"
        participant.step = Participant.Step.COMPLETE
        assert not selectors.is_dropped(participant, now=later) and selectors.dropout_step(participant, later) is None


class TestObservationJson:
    def test_a_seat_gets_its_own_observation_and_never_the_other_sides_walls(self):
        match = match_services.create_match(
            "gnomes", [match_services.SeatController("human")] * 2, seed=3, options={"round": 2}
        )
        state = state_of(match)
        secrets = state.secrets()
        for seat in match.seats.order_by("index"):
            response = Client().get(reverse("observation_json", args=[seat.token]))
            assert response.status_code == 200 and response["Cache-Control"] == "no-store"
            body = response.json()
            text = response.content.decode()
            assert (body["version"], body["status"], body["seat"]) == (0, "active", seat.index)
            assert body["observation"] == json.loads(json.dumps(state.observation(seat.index).data))
            assert sorted(body["observation"]["walls"]) == sorted(state.game.mazes[seat.index].walls)
            other = 1 - seat.index
            assert secrets[other], "the other side has secrets to leak"
            for secret in secrets[other]:
                assert secret not in text
            if seat.index == 0:  # seat 0 moves first
                assert body["my_turn"] and body["legal_actions"] == ["stay", "right", "up", "left", "down"]
            else:
                assert not body["my_turn"] and body["legal_actions"] == []

    def test_the_version_follows_the_match_and_unknown_tokens_are_404(self):
        match = match_services.create_match("gnomes", [match_services.SeatController("human")] * 2, seed=3)
        match_services.submit_action(match.pk, 0, "stay", expected_version=0)
        seat1 = match.seats.get(index=1)
        body = Client().get(reverse("observation_json", args=[seat1.token])).json()
        assert body["version"] == 1 and body["my_turn"] and body["legal_actions"]
        assert Match.objects.get(pk=match.pk).version == 1
        assert Client().get(reverse("observation_json", args=["nope"])).status_code == 404


class TestAdmin:
    def test_researchers_see_participants_read_only_and_without_tokens(self, admin_client):
        study = make_study()
        participant = started(Client(), study, **PROLIFIC)
        pages = [
            reverse("admin:studies_study_changelist"),
            reverse("admin:studies_study_change", args=[study.pk]),
            reverse("admin:studies_participant_changelist"),
            reverse("admin:studies_participant_change", args=[participant.pk]),
            reverse("admin:studies_participantround_changelist"),
            reverse("admin:studies_pairingticket_changelist"),
            reverse("admin:studies_surveyanswer_changelist"),
        ]
        for url in pages:
            response = admin_client.get(url)
            assert response.status_code == 200, url
            assert participant.token not in response.content.decode(), url
        html = admin_client.get(reverse("admin:studies_participant_change", args=[participant.pk])).content.decode()
        assert PROLIFIC["PROLIFIC_PID"] in html and 'name="step"' not in html  # shown, not editable
        assert admin_client.get(reverse("admin:studies_participant_add")).status_code == 403
