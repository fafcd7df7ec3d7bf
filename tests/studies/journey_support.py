"""Shared helpers of the participant-journey tests: an autouse fixture running agent turns in-process (import it into
a module to apply it there), a small open Gnomes study and its conditions, a participant's page URLs, consenting,
reaching round 1, and playing a round out through the match service."""

from __future__ import annotations

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.studies.models import Condition, Participant, ParticipantRound, Study
from gameplay.writes import services as match_services

PROLIFIC = {"PROLIFIC_PID": "5f0c1a2b3c4d5e6f7a8b9c0d", "STUDY_ID": "study-42", "SESSION_ID": "sess_7"}


@pytest.fixture(autouse=True)
def eager_celery():
    """Agent turns run in-process (with REDIS_URL set, settings would queue them for a worker)."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


def make_study(slug="tiny", *, rounds=2, turn_cap=2, conditions=None, **fields) -> Study:
    """An open Gnomes study with short rounds (turn_cap moves each) and the given conditions."""
    defaults = {
        "title": "Tiny maze study",
        "consent_text": "Please agree to take part in a maze game.",
        "instructions": "Move the token to the treasure.",
        "completion_code": "TINY-CODE",
        "pairing_fallback_agent": "gnomes-comm",
        "is_open": True,
    }
    study = Study.objects.create(
        slug=slug,
        game_id="gnomes",
        rounds=[{"round": r, "turn_cap": turn_cap, "first_seat": 0} for r in range(1, rounds + 1)],
        **{**defaults, **fields},
    )
    for spec in conditions or [MUTE]:
        Condition.objects.create(study=study, label=spec["key"], **spec)
    return study


def agent_condition(key: str, agent: str, **options) -> dict:
    """A two-seat condition: the participant in seat 0, ``agent`` in seat 1, ``options`` over every round."""
    return {"key": key, "seats": [{"kind": "participant"}, {"kind": "agent", "agent": agent}], "options": options}


def people_condition(key: str, people: int = 2, **options) -> dict:
    return {"key": key, "seats": [{"kind": "participant"}] * people, "options": options}


MUTE = agent_condition("mute", "gnomes-mute", chat=False)


def participant_url(name: str, participant: Participant, **kwargs) -> str:
    return reverse(f"study:{name}", kwargs={"slug": participant.study.slug, "token": participant.token, **kwargs})


def consent(client, study: Study, **params) -> Participant | None:
    """Agree on the consent page as a participant arriving with ``params`` in the study link."""
    client.post(reverse("study:consent", args=[study.slug]), {**params, "agree": "1"})
    held = client.session.get("study_participants", {}).get(str(study.pk))
    return Participant.objects.filter(token=held).first() if held else None


def started(client: Client, study, **params) -> Participant:
    """A participant who agreed and is in round 1 (its match created)."""
    participant = consent(client, study, **params)
    client.post(participant_url("instructions", participant))
    client.get(participant_url("round", participant, n=1))
    participant.refresh_from_db()
    return participant


def play_out(participant_round: ParticipantRound) -> Match:
    """Make the participant's moves through the match service until the round ends (the agent answers eagerly,
    once the move's transaction commits: the test runs those on-commit callbacks)."""
    match = participant_round.match
    for _ in range(50):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        with TestCase.captureOnCommitCallbacks(execute=True):
            match_services.submit_action(
                match.pk, participant_round.seat_index, "stay", expected_version=match.version
            )
    raise AssertionError("the round did not end")
