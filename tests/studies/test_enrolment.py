"""Enrolment rules per study (issue 13, point 8: "consent without any PID (or with made-up PIDs) creates
participants that take balanced-assignment slots; declined_count can be inflated by anyone") and the researcher
flag for a PROLIFIC_PID seen again from another browser (point 1: "a PID seen again on another browser gets a clear
page and a researcher-visible flag, not the session")."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from gameplay.studies import services, validation
from gameplay.studies.forms import EntryParams
from gameplay.studies.models import Participant, Study
from tests.studies.admin_support import ADD, errors_near, study_post
from tests.studies.journey_support import (  # noqa: F401 (eager_celery is an autouse fixture)
    PROLIFIC,
    agent_condition,
    consent,
    eager_celery,
    make_study,
    people_condition,
)
from tests.support.presets import GNOMES_LLM_AGENT, GNOMES_PRESET

pytestmark = pytest.mark.django_db


def _consent_url(study: Study) -> str:
    return reverse("study:consent", args=[study.slug])


def _entry(client: Client, study: Study, params=None):
    return client.get(reverse("study:entry", args=[study.slug]), params or {})


class TestPidSeenAgain:
    def test_the_page_writes_nothing_and_its_post_flags_the_participant_once_per_browser(self):
        study = make_study()
        first = consent(Client(), study, **PROLIFIC)
        other = Client()
        page = _entry(other, study, PROLIFIC)
        html = page.content.decode()
        assert page.status_code == 403 and "already taken part" in html and first.token not in html
        first.refresh_from_db()
        assert first.pid_reuse_count == 0 and first.pid_reused_at is None  # the GET wrote nothing
        # The page's form posts to the consent URL: flagged, and still refused the session.
        response = other.post(_consent_url(study), {**PROLIFIC, "report": "1"})
        assert response.status_code == 403 and "researchers can see" in response.content.decode()
        assert "study_participants" not in other.session
        first.refresh_from_db()
        assert first.pid_reuse_count == 1 and first.pid_reused_at is not None
        # Again from the same browser (agree this time): still refused, not counted twice.
        assert other.post(_consent_url(study), {**PROLIFIC, "agree": "1"}).status_code == 403
        # A third browser agreeing with the same id is counted too; a decline with it is not a decline.
        third = Client()
        assert third.post(_consent_url(study), {**PROLIFIC, "decline": "1"}).status_code == 403
        first.refresh_from_db()
        study.refresh_from_db()
        assert first.pid_reuse_count == 2 and study.declined_count == 0
        assert Participant.objects.count() == 1

    def test_researchers_see_the_flag_in_the_admin_and_on_the_dashboard(self, admin_client):
        study = make_study()
        first = consent(Client(), study, **PROLIFIC)
        Client().post(_consent_url(study), {**PROLIFIC, "agree": "1"})
        changelist = admin_client.get(reverse("admin:studies_participant_changelist")).content.decode()
        assert "PID reused from another browser" in changelist and "1×" in changelist
        assert first.token not in changelist
        live = admin_client.get(reverse("study_research:live", args=[study.slug])).content.decode()
        assert 'data-pid-reused="1"' in live and "used again from another browser" in live


class TestRequirePid:
    def test_a_link_without_a_valid_pid_is_refused_with_a_clear_page(self):
        study = make_study(require_pid=True)
        page = _entry(Client(), study)
        assert page.status_code == 403 and "start from the Prolific link" in page.content.decode()
        assert "I agree" not in page.content.decode()
        for params in ({}, {"PROLIFIC_PID": "{{%PROLIFIC_PID%}}"}, {"PROLIFIC_PID": "x" * 65}):
            client = Client()
            response = client.post(_consent_url(study), {**params, "agree": "1"})
            assert response.status_code == 403 and "Prolific ID" in response.content.decode()
            assert "study_participants" not in client.session
        assert Participant.objects.count() == 0
        with pytest.raises(services.PidRequired):
            services.accept_consent(study, EntryParams())
        assert consent(Client(), study, **PROLIFIC).prolific_pid == PROLIFIC["PROLIFIC_PID"]

    def test_without_the_rule_a_study_still_takes_people_without_a_pid(self):
        assert consent(Client(), make_study()) is not None

    def test_requiring_a_pid_needs_the_ids_read(self):
        data = {"game_id": "gnomes", "rounds": [{"round": 1}], "likert_items": [
            {"key": "k", "prompt": "p", "low": "l", "high": "h"}], "require_pid": True, "read_url_ids": False}
        errors = validation.study_errors(data, [agent_condition("mute", "gnomes-mute")])
        assert list(errors) == ["require_pid"]


class TestParticipantCap:
    def test_a_full_study_shows_the_closed_page_and_enrols_nobody_else(self):
        study = make_study(max_participants=2, conditions=[agent_condition("a", "gnomes-mute"),
                                                           agent_condition("b", "gnomes-comm")])
        assert consent(Client(), study) is not None
        assert consent(Client(), study, **PROLIFIC) is not None
        late = Client()
        page = _entry(late, study)
        assert page.status_code == 200 and "This study is closed" in page.content.decode()
        response = late.post(_consent_url(study), {"agree": "1", "PROLIFIC_PID": "another1"})
        assert "This study is closed" in response.content.decode() and "study_participants" not in late.session
        with pytest.raises(services.StudyFull):  # checked under the study lock, with assignment
            services.accept_consent(study, EntryParams(prolific_pid="another2"))
        assert Participant.objects.filter(study=study).count() == 2

    def test_zero_means_no_cap(self):
        study = make_study(max_participants=0)
        assert all(consent(Client(), study) is not None for _ in range(3))

    def test_the_cap_must_leave_room_for_a_conditions_participant_seats(self):
        data = {"game_id": "gnomes", "rounds": [{"round": 1}], "pairing_fallback_agent": "gnomes-comm",
                "likert_items": [{"key": "k", "prompt": "p", "low": "l", "high": "h"}]}
        assert validation.study_errors({**data, "max_participants": 1}, [people_condition("h")]) == {
            "max_participants": ["A cap of 1 cannot fill a condition with 2 participant seats."]
        }
        assert validation.study_errors({**data, "max_participants": 2}, [people_condition("h")]) == {}
        assert "max_participants" in validation.study_errors({**data, "max_participants": -1}, [])


class TestDeclines:
    def test_a_decline_is_counted_once_per_browser(self):
        study = make_study()
        client = Client()
        for _ in range(3):
            assert client.post(_consent_url(study), {"decline": "1"}).status_code == 302
        study.refresh_from_db()
        assert study.declined_count == 1
        Client().post(_consent_url(study), {"decline": "1"})
        study.refresh_from_db()
        assert study.declined_count == 2 and Participant.objects.count() == 0


class TestAdminForm:
    def test_the_enrolment_rules_are_edited_and_checked_in_the_admin(self, admin_client):
        data = study_post(require_pid="on")
        data.pop("read_url_ids")
        html = admin_client.post(ADD, data).content.decode()
        assert "needs the study link" in errors_near(html, "require_pid")
        two = [("h", "People", "participant, participant", "")]
        html = admin_client.post(ADD, study_post(conditions=two, max_participants="1")).content.decode()
        assert "A cap of 1 cannot fill" in html and not Study.objects.exists()
        response = admin_client.post(ADD, study_post(require_pid="on", max_participants="40"))
        assert response.status_code == 302
        study = Study.objects.get()
        assert study.require_pid and study.max_participants == 40


def test_a_preset_carries_the_enrolment_rules():
    from gameplay.studies.presets import PresetError, load_preset, read_preset

    call_command("loaddata", str(GNOMES_LLM_AGENT), verbosity=0)  # the preset's LLM partner
    data = read_preset(GNOMES_PRESET)
    study, _ = load_preset({**data, "require_pid": True, "max_participants": 40})
    study.refresh_from_db()
    assert (study.require_pid, study.max_participants) == (True, 40)
    with pytest.raises(PresetError, match="read_url_ids|PROLIFIC"):
        load_preset({**data, "read_url_ids": False})  # the stored study requires a PID: the ids must be read
