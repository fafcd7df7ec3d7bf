"""Reads for studies: studies, participants, their rounds and waiting-room tickets. No writes here."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from gameplay.models import Match, Seat
from gameplay.studies.models import (
    ComprehensionAnswer,
    Condition,
    PairingTicket,
    Participant,
    ParticipantRound,
    Study,
)
from gameplay.web import presence
from gameplay.writes.text_input import clean_token

# Steps after which a silent participant is finished, not dropped out.
FINAL_STEPS = (Participant.Step.COMPLETE, Participant.Step.ENDED, Participant.Step.SCREENED)


def plays_in_match(participant_tokens, match: Match) -> bool:
    """Whether one of these participants (by the tokens a browser's session holds) plays a round in this match."""
    return ParticipantRound.objects.filter(match_id=match.pk, participant__token__in=participant_tokens).exists()


def study_by_slug(slug: str) -> Study | None:
    return Study.objects.filter(slug=slug).first()


def participant_by_token(study: Study, token: str) -> Participant | None:
    """None for an unknown token and for a malformed one (NUL, surrogates, ...), which never reaches a query."""
    token = clean_token(token)
    if token is None:
        return None
    return Participant.objects.select_related("study", "condition").filter(study=study, token=token).first()


def participant_by_pid(study: Study, prolific_pid: str) -> Participant | None:
    if not prolific_pid:
        return None
    return Participant.objects.select_related("study", "condition").filter(
        study=study, prolific_pid=prolific_pid
    ).first()


def is_full(study: Study) -> bool:
    """The study has reached its participant cap (0 = no cap); people who declined never count."""
    return bool(study.max_participants) and Participant.objects.filter(study=study).count() >= study.max_participants


def condition_counts(study: Study) -> list[tuple[Condition, int]]:
    """Every condition with its number of participants (people who declined never became participants)."""
    return [(c, c.n) for c in study.conditions.annotate(n=Count("participants")).order_by("pk")]


def round_count(study: Study) -> int:
    return len(study.rounds or [])


def participant_round(participant: Participant, round_index: int) -> ParticipantRound | None:
    return (
        ParticipantRound.objects.select_related("match")
        .filter(participant=participant, round_index=round_index)
        .first()
    )


def round_partner_summary(participant_round: ParticipantRound) -> str:
    """Who else plays this round, from its seats: "another participant", "agent random", … (a pairing timeout
    can put the fallback agent where the condition named a participant)."""
    seats = participant_round.match.seats.exclude(index=participant_round.seat_index).order_by("index")
    people = sum(1 for s in seats if s.controller == Seat.Controller.HUMAN)
    parts = ["another participant" if people == 1 else f"{people} other participants"] if people else []
    parts += [f"agent {s.agent_name}" for s in seats if s.controller == Seat.Controller.AGENT]
    return " and ".join(parts) or "nobody (solo)"


def ticket_of(participant: Participant, round_index: int) -> PairingTicket | None:
    return PairingTicket.objects.filter(participant=participant, round_index=round_index).first()


def seat_of(participant_round: ParticipantRound) -> Seat:
    """The participant's own seat in the round's match (its token is the websocket credential)."""
    return participant_round.match.seats.get(index=participant_round.seat_index)


def round_is_over(participant_round: ParticipantRound) -> bool:
    """Over for this participant: the match ended, or they left it and it went on without them (an agent took
    their seat, ``Study.partner_left_action``)."""
    return (
        participant_round.match.status != Match.Status.ACTIVE
        or participant_round.departure == ParticipantRound.Departure.LEFT
    )


def partners_left(participant_round: ParticipantRound) -> list[int]:
    """The seats of the other participants of this running round who have left it: their pages closed or offline
    for longer than PRESENCE_LEFT_AFTER_SECONDS (gameplay.web.presence; a reload is not leaving)."""
    if participant_round.partner_participant_id is None or round_is_over(participant_round):
        return []
    match = participant_round.match
    others = set(
        ParticipantRound.objects.filter(match_id=match.pk)
        .exclude(participant_id=participant_round.participant_id)
        .values_list("seat_index", flat=True)
    )
    seen = presence.of_match(list(match.seats.all()), match.created_at.timestamp())
    return [index for index in presence.seats_left(seen) if index in others]


def partner_gone(participant_round: ParticipantRound) -> bool:
    return bool(partners_left(participant_round))


def seconds_waiting(ticket: PairingTicket, now: datetime | None = None) -> int:
    return max(0, int(((now or timezone.now()) - ticket.created_at).total_seconds()))


def pairing_timed_out(ticket: PairingTicket, study: Study, now: datetime | None = None) -> bool:
    return seconds_waiting(ticket, now) >= study.pairing_timeout_s


# The outcome of a ticket whose wait ran out and whose round was played with the study's fallback agent.
TIMED_OUT_TO_AGENT = "timeout-agent"


def keeps_fallback_agent(participant: Participant, round_index: int) -> bool:
    """Whether the participant plays round ``round_index`` (0-based) with the study's fallback agent at once, without
    waiting: a wait of theirs in an earlier round timed out into that agent, and the study keeps the agent for the
    rest of the session (``Study.pairing_after_timeout`` "agent")."""
    study = participant.study
    keeps = (
        study.pairing_after_timeout == Study.AfterTimeout.AGENT
        and study.pairing_timeout_action == Study.PairingTimeout.AGENT
        and bool(study.pairing_fallback_agent)
    )
    return keeps and PairingTicket.objects.filter(
        participant=participant, round_index__lt=round_index, outcome=TIMED_OUT_TO_AGENT
    ).exists()


def is_dropped(participant: Participant, now: datetime | None = None) -> bool:
    """Dropped out = not finished and silent for longer than the study's dropout_after_s.

    Computed, never stored: a participant who comes back after a long pause simply stops being dropped.
    """
    if participant.step in FINAL_STEPS:
        return False
    seen = participant.last_seen_at or participant.consented_at or participant.created_at
    if seen is None:
        return False
    return (now or timezone.now()) - seen > timedelta(seconds=participant.study.dropout_after_s)


def dropout_step(participant: Participant, now: datetime | None = None) -> str | None:
    """Where a dropped-out participant stopped (e.g. "rounds:3" for round 3), or None if not dropped."""
    if not is_dropped(participant, now):
        return None
    if participant.step == Participant.Step.ROUNDS:
        return f"{participant.step}:{participant.round_index + 1}"
    return participant.step


def last_comprehension_try(participant: Participant) -> dict[str, tuple[int, bool]]:
    """The participant's latest try at the comprehension check: {question key: (option chosen, right)}; {} before
    the first."""
    answers = ComprehensionAnswer.objects.filter(participant=participant, attempt=participant.comprehension_attempts)
    return {a.item_key: (a.choice, a.correct) for a in answers}
