"""Writes of the waiting room: participants of a condition with k >= 2 participant seats meet here and play one
match, or the study's timeout action applies when nobody comes in time.

Only POSTs reach this module (the first step into a round, and the waiting page's poll); the waiting page
itself reads through selectors. Every decision is taken under the condition's row lock.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from gameplay.studies import selectors
from gameplay.studies.models import Condition, PairingTicket, Participant, ParticipantRound, Study
from gameplay.studies.participant_lock import locked
from gameplay.studies.round_matches import create_round

Step = Participant.Step

# The outcome of a ticket left open when its participant kept the fallback agent instead (see pair_or_wait).
KEPT_AGENT = "kept-agent"

# A waiting participant's page polls every 2 s and each poll touches last_seen_at. Someone silent for longer
# than this has closed the page: pairing them would leave their partner alone in a round that never ends.
WAITING_PRESENCE_S = 15


def pair_or_wait(participant: Participant) -> ParticipantRound | None:
    """The waiting room of a condition with k >= 2 participant seats, one call per arrival or poll (POSTs).

    Starts the round once k-1 other participants of the same study, condition and round are waiting and still
    on the waiting page: ONE match, the participants in the condition's participant seats in arrival order.
    After ``study.pairing_timeout_s`` the study's timeout action applies: play the round with the fallback
    agent in the other participant seats, or end the participant's session. Once a wait has timed out into the
    fallback agent, ``study.pairing_after_timeout`` decides the later rounds: wait again (the waiting page says
    for how long at most), or "agent": start at once with the fallback agent, with no ticket (the round's seats,
    the agent where the condition names a participant, tell the exports: ``as_assigned`` 0). Returns the round
    once there is one, else None.
    """
    with transaction.atomic():
        # One lock per condition serialises every waiting room decision in it, so two people polling at the
        # same moment cannot both take the same third, and no two locks are ever taken in opposite orders.
        Condition.objects.select_for_update().get(pk=participant.condition_id)
        p = locked(participant)
        if p.step != Step.ROUNDS:
            return None
        existing = selectors.participant_round(p, p.round_index)
        if existing is not None:
            return existing  # another participant's poll started our round while we waited for the lock
        now = timezone.now()
        study = p.study
        if selectors.keeps_fallback_agent(p, p.round_index):
            # A ticket opened for this round before the study switched to keeping the agent would still be offered
            # to newcomers: close it, so nobody is paired with someone who is already playing.
            PairingTicket.objects.filter(participant=p, round_index=p.round_index, resolved_at__isnull=True).update(
                outcome=KEPT_AGENT, resolved_at=now
            )
            return create_round([p], p.round_index, fallback_agent=study.pairing_fallback_agent)
        ticket, _ = PairingTicket.objects.get_or_create(participant=p, round_index=p.round_index)
        # The timeout is checked first: what the waiting page promised happens at the stated time, and an
        # expired ticket is never paired (newcomers skip it too), so every side sees the same rule.
        if not selectors.pairing_timed_out(ticket, p.study, now):
            others = _waiting_tickets(p, now, len(p.condition.participant_seats) - 1)
            if len(others) < len(p.condition.participant_seats) - 1:
                return None
            tickets = sorted([ticket, *others], key=lambda t: (t.created_at, t.pk))
            for t in tickets:
                _resolve(t, "paired", now)
            people = [p if t.pk == ticket.pk else t.participant for t in tickets]
            return create_round(people, p.round_index, fallback_agent="", me=p)
        if study.pairing_timeout_action == Study.PairingTimeout.AGENT and study.pairing_fallback_agent:
            _resolve(ticket, selectors.TIMED_OUT_TO_AGENT, now)
            return create_round([p], p.round_index, fallback_agent=study.pairing_fallback_agent)
        _resolve(ticket, "timeout-end", now)
        p.step = Step.ENDED
        p.save(update_fields=["step"])
        return None


def _waiting_tickets(p: Participant, now, wanted: int) -> list[PairingTicket]:
    """Up to ``wanted`` open tickets of others waiting for the same round of the same condition, oldest first."""
    study = p.study
    present_since = now - timedelta(seconds=WAITING_PRESENCE_S)
    not_expired_since = now - timedelta(seconds=study.pairing_timeout_s)
    return list(
        PairingTicket.objects.select_related("participant__study", "participant__condition")
        .filter(
            participant__study=study,
            participant__condition_id=p.condition_id,
            participant__step=Step.ROUNDS,
            participant__round_index=p.round_index,
            participant__last_seen_at__gte=present_since,
            round_index=p.round_index,
            resolved_at__isnull=True,
            created_at__gt=not_expired_since,  # an expired ticket gets its timeout action, as configured
        )
        .exclude(participant=p)
        .order_by("created_at", "pk")[: max(0, wanted)]
    )


def _resolve(ticket: PairingTicket, outcome: str, now) -> None:
    ticket.outcome, ticket.resolved_at = outcome, now
    ticket.save(update_fields=["outcome", "resolved_at"])
