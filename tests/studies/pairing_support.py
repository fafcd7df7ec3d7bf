"""Shared helpers of the waiting-room tests: the two-participant condition, a participant arriving in the waiting
room of round 1, and a pairing ticket aged without sleeping."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from gameplay.studies.models import PairingTicket, Participant
from tests.studies.journey_support import consent, participant_url, people_condition

HUMAN = [people_condition("human", chat=True)]


def arrive(study, pid: str) -> tuple[Client, Participant]:
    """Consent and finish the instructions: that POST joins the waiting room of round 1 (and pairs at once if
    it can); then open the waiting page, which only reads."""
    client = Client()
    participant = consent(client, study, PROLIFIC_PID=pid)
    response = client.post(participant_url("instructions", participant))
    assert response["Location"] in (
        participant_url("wait", participant, n=1),
        participant_url("round", participant, n=1),
    )
    assert client.get(response["Location"]).status_code in (200, 302)
    return client, participant


def age_ticket(participant: Participant, seconds: int) -> None:
    """Pretend the participant has been waiting ``seconds`` already (instead of sleeping through it)."""
    PairingTicket.objects.filter(participant=participant).update(
        created_at=timezone.now() - timedelta(seconds=seconds)
    )
