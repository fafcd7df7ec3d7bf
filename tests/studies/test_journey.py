"""The participant journey from one study link: preset, consent, assignment, rounds, survey, completion, resume."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.management import call_command
from django.test import Client, TestCase
from django.urls import reverse

from gameplay.models import Match
from gameplay.studies import services
from gameplay.studies.forms import EntryParams
from gameplay.studies.models import PairingTicket, Participant, ParticipantRound, Study, SurveyAnswer
from gameplay.writes import services as match_services
from gameplay.writes.services import ServiceError
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    MUTE,
    PROLIFIC,
    agent_condition,
    consent,
    eager_celery,
    make_study,
    participant_url,
    people_condition,
    play_out,
)
from tests.support.db_writes import writes_during
from tests.support.presets import load_gnomes_preset

pytestmark = pytest.mark.django_db

PRESET = "fixtures/studies/gnomes_seeds003.json"


class TestPreset:
    def test_load_study_is_idempotent_by_slug_and_never_closes_an_open_study(self):
        load_gnomes_preset()
        study = Study.objects.get(slug="gnomes-seeds003")
        assert not study.is_open
        call_command("load_study", PRESET, "--open")
        call_command("load_study", PRESET)
        study = Study.objects.get(slug="gnomes-seeds003")
        assert Study.objects.count() == 1 and study.is_open
        assert [r["round"] for r in study.rounds] == [1, 2, 3, 4, 5]
        assert {r["turn_cap"] for r in study.rounds} == {200}
        assert study.completion_code == "GNOMES-2026"
        assert (study.pairing_timeout_s, study.pairing_timeout_action, study.pairing_fallback_agent) == (
            120, "agent", "gnomes-comm",
        )
        conditions = {c.key: c for c in study.conditions.all()}
        assert sorted(conditions) == ["comm", "human", "llm", "mute"]
        human, comm, mute, llm = (conditions[key] for key in ("human", "comm", "mute", "llm"))
        assert (human.participant_seats, human.agent_seats, human.options) == ([0, 1], {}, {"chat": True})
        assert human.needs_partner and human.partner_summary == "another participant"
        assert (comm.participant_seats, comm.agent_seats) == ([0], {1: "gnomes-comm"})
        assert comm.options == {"show_hints": True}
        assert (mute.participant_seats, mute.agent_seats, mute.options) == ([0], {1: "gnomes-mute"}, {"chat": False})
        assert not mute.needs_partner and mute.partner_summary == "agent gnomes-mute"
        # The LLM partner: an LLM configuration in seat 1, chat on (issue 22, point 6).
        assert (llm.participant_seats, llm.agent_seats, llm.options) == ([0], {1: "gnomes-llm"}, {"chat": True})


class TestConsent:
    def test_the_consent_page_creates_nothing_and_carries_the_link_parameters(self):
        study = make_study()
        response = Client().get(reverse("study:entry", args=[study.slug]), PROLIFIC)
        assert response.status_code == 200
        html = response.content.decode()
        assert study.consent_text in html and "I agree" in html and "I do not agree" in html
        assert f'name="PROLIFIC_PID" value="{PROLIFIC["PROLIFIC_PID"]}"' in html
        assert Participant.objects.count() == 0

    def test_declining_keeps_only_the_count(self):
        study = make_study()
        client = Client()
        response = client.post(reverse("study:consent", args=[study.slug]), {**PROLIFIC, "decline": "1"})
        assert response.status_code == 302
        page = client.get(response["Location"])
        assert page.status_code == 200 and "Nothing about you has been stored" in page.content.decode()
        study.refresh_from_db()
        assert study.declined_count == 1
        assert Participant.objects.count() == 0
        assert "study_participants" not in client.session

    def test_agreeing_stores_the_prolific_ids_and_the_consent_time(self):
        study = make_study()
        participant = consent(Client(), study, **PROLIFIC)
        assert participant.prolific_pid == PROLIFIC["PROLIFIC_PID"]
        assert participant.prolific_study_id == "study-42" and participant.prolific_session_id == "sess_7"
        assert participant.consented_at is not None and participant.step == Participant.Step.INSTRUCTIONS

    def test_ids_are_not_stored_when_the_study_does_not_read_them(self):
        study = make_study(read_url_ids=False)
        participant = consent(Client(), study, **PROLIFIC)
        assert (participant.prolific_pid, participant.prolific_study_id, participant.prolific_session_id) == (
            "", "", "",
        )

    def test_malformed_ids_are_ignored(self):
        study = make_study()
        participant = consent(Client(), study, PROLIFIC_PID="{{%PROLIFIC_PID%}}", SESSION_ID="x" * 65)
        assert participant.prolific_pid == "" and participant.prolific_session_id == ""

    def test_a_closed_study_says_so_politely_and_accepts_nobody(self):
        study = make_study(is_open=False)
        client = Client()
        response = client.get(reverse("study:entry", args=[study.slug]))
        assert response.status_code == 200 and "This study is closed" in response.content.decode()
        assert consent(client, study) is None
        assert Participant.objects.count() == 0

    def test_the_same_prolific_pid_cannot_start_twice_nor_take_over_the_first_participation(self):
        study = make_study()
        first = consent(Client(), study, **PROLIFIC)
        # A second browser with the same PROLIFIC_PID is told it has taken part, and gets nothing of the first.
        other = Client()
        response = other.get(reverse("study:entry", args=[study.slug]), PROLIFIC)
        html = response.content.decode()
        assert response.status_code == 403 and "already taken part" in html
        assert first.token not in html and "study_participants" not in other.session
        # Posting the consent form again neither creates a second participant nor hands over the first.
        assert consent(other, study, **PROLIFIC) is None
        assert other.post(reverse("study:consent", args=[study.slug]), {**PROLIFIC, "agree": "1"}).status_code == 403
        assert Participant.objects.count() == 1
        with pytest.raises(services.AlreadyParticipating) as err:
            services.accept_consent(study, EntryParams(prolific_pid=PROLIFIC["PROLIFIC_PID"]))
        assert "already taken part" in str(err.value)

    def test_a_completed_participant_sees_the_completion_page_again(self):
        study = make_study()
        client = Client()
        participant = consent(client, study, **PROLIFIC)
        Participant.objects.filter(pk=participant.pk).update(step=Participant.Step.COMPLETE)
        response = client.get(reverse("study:entry", args=[study.slug]), PROLIFIC, follow=True)
        assert response.redirect_chain[-1][0] == participant_url("complete", participant)
        assert "TINY-CODE" in response.content.decode()
        assert Participant.objects.count() == 1


class TestAssignment:
    CONDITIONS = [people_condition("human"), agent_condition("comm", "gnomes-comm"), MUTE]

    def test_balanced_assignment_fills_conditions_evenly(self):
        study = make_study(conditions=self.CONDITIONS)
        for i in range(12):
            consent(Client(), study, PROLIFIC_PID=f"pid{i}")
        counts = Counter(Participant.objects.values_list("condition__key", flat=True))
        assert counts == {"human": 4, "comm": 4, "mute": 4}

    def test_the_condition_parameter_is_honoured_only_in_url_mode(self):
        balanced = make_study("balanced", conditions=self.CONDITIONS)
        piloting = make_study("piloting", conditions=self.CONDITIONS, assignment=Study.Assignment.URL)
        for i in range(3):
            consent(Client(), piloting, PROLIFIC_PID=f"p{i}", condition="mute")
            consent(Client(), balanced, PROLIFIC_PID=f"b{i}", condition="mute")
        assert Counter(piloting.participants.values_list("condition__key", flat=True)) == {"mute": 3}
        assert Counter(balanced.participants.values_list("condition__key", flat=True)) == {
            "human": 1, "comm": 1, "mute": 1,
        }
        # An unknown key in URL mode falls back to balanced assignment.
        assert consent(Client(), piloting, PROLIFIC_PID="p9", condition="nope").condition.key in ("human", "comm")


class TestJourney:
    def test_the_whole_journey_against_the_mute_agent(self):
        study = make_study(rounds=2, turn_cap=2)
        client = Client()
        participant = consent(client, study, **PROLIFIC)

        page = client.get(participant_url("instructions", participant))
        assert page.status_code == 200 and "Move the token to the treasure." in page.content.decode()
        assert "computer program" in page.content.decode()
        response = client.post(participant_url("instructions", participant))
        assert response["Location"] == participant_url("round", participant, n=1)

        for n in (1, 2):
            page = client.get(participant_url("round", participant, n=n))
            assert page.status_code == 200
            html = page.content.decode()
            current = ParticipantRound.objects.get(participant=participant, round_index=n - 1)
            seat = current.match.seats.get(index=current.seat_index)
            assert f"Round {n} of 2" in html and f'ws-connect="/ws/play/{seat.token}/"' in html
            assert current.seat_index == 0 and current.partner_agent == "gnomes-mute"
            assert [(s.controller, s.agent_name) for s in current.match.seats.order_by("index")] == [
                ("human", ""), ("agent", "gnomes-mute"),
            ]
            assert current.match.options["round"] == n and current.match.options["turn_cap"] == 2
            assert current.match.options["show_hints"] is False
            assert current.match.options["chat"] is False  # the engine refuses chat, not only the page
            # The mute condition has no chat box, and nothing leads out of the study.
            assert 'id="chat-text"' not in html and "Chat</h2>" not in html
            for link in ("Play again", "Watch the replay", "next round", "Send these links"):
                assert link not in html
            # Continue is refused while the round runs.
            client.post(participant_url("round_continue", participant, n=n))
            participant.refresh_from_db()
            assert participant.round_index == n - 1

            running = client.get(participant_url("round_status", participant, n=n), HTTP_HX_REQUEST="true")
            assert running.status_code == 200 and "<form" not in running.content.decode()
            match = play_out(current)
            assert match.status == Match.Status.FINISHED
            status = client.get(participant_url("round_status", participant, n=n), HTTP_HX_REQUEST="true")
            assert status.status_code == 286  # htmx: stop polling, the Continue button is final
            assert "Continue" in status.content.decode() and "Out of turns" in status.content.decode()
            response = client.post(participant_url("round_continue", participant, n=n))
            expected = participant_url("round", participant, n=2) if n == 1 else participant_url("survey", participant)
            assert response["Location"] == expected
            # A second click on the same Continue changes nothing.
            client.post(participant_url("round_continue", participant, n=n))

        participant.refresh_from_db()
        assert participant.step == Participant.Step.SURVEY
        survey = client.get(participant_url("survey", participant))
        html = survey.content.decode()
        assert "How engaged did you feel while playing?" in html and "Not at all engaged" in html
        assert html.count('type="radio" name="engagement"') == 5
        incomplete = client.post(participant_url("survey", participant), {"engagement": "4"})
        assert incomplete.status_code == 200 and "Please choose one answer." in incomplete.content.decode()
        out_of_range = client.post(participant_url("survey", participant), {"engagement": "6", "satisfaction": "2"})
        assert out_of_range.status_code == 200 and SurveyAnswer.objects.count() == 0
        done = client.post(participant_url("survey", participant), {"engagement": "4", "satisfaction": "5"})
        assert done["Location"] == participant_url("complete", participant)

        page = client.get(done["Location"])
        html = page.content.decode()
        assert "TINY-CODE" in html and "Thank you for taking part!" in html
        participant.refresh_from_db()
        assert participant.step == Participant.Step.COMPLETE and participant.completed_at is not None
        assert dict(participant.answers.values_list("item_key", "value")) == {"engagement": 4, "satisfaction": 5}
        assert participant.rounds.count() == 2
        # Finished pages do not reopen: the survey and the rounds now lead to the completion page.
        for name, kwargs in (("survey", {}), ("round", {"n": 1}), ("instructions", {})):
            response = client.get(participant_url(name, participant, **kwargs))
            assert response["Location"] == participant_url("complete", participant), name

    def test_the_completion_page_links_back_when_a_url_is_set(self):
        """A button back to the platform, never a timed redirect that takes the page away while someone is still
        copying the code (issue 16.8: axe-core's critical meta-refresh)."""
        study = make_study(completion_redirect_url="https://app.prolific.com/submissions/complete?cc=TINY-CODE")
        client = Client()
        participant = consent(client, study)
        Participant.objects.filter(pk=participant.pk).update(step=Participant.Step.COMPLETE)
        html = client.get(participant_url("complete", participant)).content.decode()
        assert 'href="https://app.prolific.com/submissions/complete?cc=TINY-CODE"' in html
        assert 'http-equiv="refresh"' not in html
        assert 'data-copy="TINY-CODE"' in html

    def test_the_comm_condition_has_chat_and_hints(self):
        study = make_study(conditions=[agent_condition("comm", "random", chat=True, show_hints=True)])
        client = Client()
        participant = consent(client, study)
        client.post(participant_url("instructions", participant))
        html = client.get(participant_url("round", participant, n=1)).content.decode()
        assert 'id="chat-text"' in html and "Tips for talking to the agent" in html
        assert participant.rounds.get().match.options["show_hints"] is True


class TestResume:
    def test_reopening_the_link_mid_round_returns_to_the_same_round_and_match(self):
        study = make_study(rounds=3, turn_cap=4)
        client = Client()
        participant = consent(client, study, **PROLIFIC)
        client.post(participant_url("instructions", participant))
        for n in (1, 2):
            client.get(participant_url("round", participant, n=n))
            play_out(participant.rounds.get(round_index=n - 1))
            client.post(participant_url("round_continue", participant, n=n))
        client.get(participant_url("round", participant, n=3))
        third = participant.rounds.get(round_index=2)
        third.match.refresh_from_db()
        with TestCase.captureOnCommitCallbacks(execute=True):  # the agent answers once the move commits
            match_services.submit_action(third.match.pk, 0, "stay", expected_version=third.match.version)
        third.match.refresh_from_db()
        version = third.match.version
        assert third.match.status == Match.Status.ACTIVE and version == 2  # one move each, mid-round

        # The tab is closed: the same browser opens the study link again (its session holds the participant).
        response = client.get(reverse("study:entry", args=[study.slug]), PROLIFIC, follow=True)
        assert response.redirect_chain[-1][0] == participant_url("round", participant, n=3)
        html = response.content.decode()
        seat_token = third.match.seats.get(index=0).token
        assert f"/ws/play/{seat_token}/" in html and f'data-version="{version}"' in html
        assert ParticipantRound.objects.filter(participant=participant).count() == 3
        assert Participant.objects.count() == 1
        # The same browser (its session) is resumed even without the Prolific parameters.
        response = client.get(reverse("study:entry", args=[study.slug]))
        assert response["Location"] == participant_url("round", participant, n=3)

    def test_a_wrong_step_redirects_to_the_current_one(self):
        study = make_study(rounds=3)
        client = Client()
        participant = consent(client, study)
        assert client.get(participant_url("round", participant, n=1))["Location"] == participant_url(
            "instructions", participant
        )
        client.post(participant_url("instructions", participant))
        for url in (participant_url("instructions", participant), participant_url("round", participant, n=3),
                    participant_url("survey", participant), participant_url("complete", participant),
                    participant_url("resume", participant)):
            assert client.get(url)["Location"] == participant_url("round", participant, n=1), url

    def test_visits_are_recorded_by_posts_and_the_heartbeat_never_by_a_get(self):
        study = make_study()
        client = Client()
        participant = consent(client, study)
        Participant.objects.filter(pk=participant.pk).update(last_seen_at=None)
        html = client.get(participant_url("instructions", participant)).content.decode()
        participant.refresh_from_db()
        assert participant.last_seen_at is None
        assert f'hx-post="{participant_url("heartbeat", participant)}"' in html and "X-CSRFToken" in html
        assert client.get(participant_url("heartbeat", participant)).status_code == 405
        assert client.post(participant_url("heartbeat", participant)).status_code == 204
        participant.refresh_from_db()
        assert participant.last_seen_at is not None


class TestGetsOnlyRead:
    """Every participant page answers GET without writing; the writes happen in the POSTs that lead there."""

    def test_the_round_page_creates_no_match_on_get_and_offers_a_start_form(self):
        study = make_study()
        client = Client()
        participant = consent(client, study, **PROLIFIC)
        # The step moved on without a round (as when creating it failed): the GET shows a POST form instead.
        Participant.objects.filter(pk=participant.pk).update(step=Participant.Step.ROUNDS)
        url = participant_url("round", participant, n=1)
        pages = []
        assert writes_during(lambda: pages.append(client.get(url))) == []
        assert pages[0].status_code == 200
        assert participant_url("round_start", participant, n=1) in pages[0].content.decode()
        assert ParticipantRound.objects.count() == 0
        response = client.post(participant_url("round_start", participant, n=1))
        assert response["Location"] == url and ParticipantRound.objects.count() == 1
        assert participant.rounds.get().match.private

    def test_a_round_that_cannot_start_says_why_on_the_page(self, monkeypatch):
        study = make_study()
        client = Client()
        participant = consent(client, study, **PROLIFIC)
        Participant.objects.filter(pk=participant.pk).update(step=Participant.Step.ROUNDS)

        def refuse(_participant):
            raise ServiceError("unknown agent 'gone'")

        monkeypatch.setattr("gameplay.studies.services.start_round", refuse)
        response = client.post(participant_url("round_start", participant, n=1), follow=True)
        html = response.content.decode()
        assert "The round could not start: unknown agent &#x27;gone&#x27;" in html
        assert participant_url("round_start", participant, n=1) in html  # the form to try again
        assert ParticipantRound.objects.count() == 0

    def test_gets_along_the_journey_write_nothing(self):
        study = make_study(conditions=[people_condition("human")])
        client = Client()
        assert writes_during(lambda: client.get(reverse("study:entry", args=[study.slug]), PROLIFIC)) == []
        participant = consent(client, study, **PROLIFIC)
        urls = [participant_url("instructions", participant), participant_url("resume", participant),
                reverse("study:entry", args=[study.slug])]
        assert writes_during(lambda: [client.get(u) for u in urls]) == []
        client.post(participant_url("instructions", participant))
        urls = [participant_url("wait", participant, n=1), participant_url("round", participant, n=1),
                participant_url("round_status", participant, n=1), participant_url("survey", participant)]
        assert writes_during(lambda: [client.get(u) for u in urls]) == []
        assert PairingTicket.objects.count() == 1  # the POST joined the waiting room; the GETs did not pair
