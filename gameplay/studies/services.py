"""Writes for the participant journey: consent, assignment, rounds (with the waiting room), survey, completion.

Every step is a small transaction that checks the participant's current step first, so a double click, a
second tab or a replayed POST cannot skip or repeat a step. Rounds are ordinary matches created through the
match service; the measures a study reports (turns, wall hits, messages, think times, timestamps) come from
those matches' event logs, so nothing is recorded twice.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from gameplay import services as match_services
from gameplay.services import SeatController, ServiceError
from gameplay.studies import selectors
from gameplay.studies.forms import EntryParams
from gameplay.studies.models import Condition, PairingTicket, Participant, ParticipantRound, Study, SurveyAnswer

Step = Participant.Step

# A waiting participant's page polls every 2 s and each poll touches last_seen_at. Someone silent for longer
# than this has closed the page: pairing them would leave their partner alone in a round that never ends.
WAITING_PRESENCE_S = 15


class StudyClosed(ServiceError):
    pass


class AlreadyParticipating(ServiceError):
    """The same PROLIFIC_PID came back: the caller resumes ``participant`` instead of starting again."""

    def __init__(self, participant: Participant):
        super().__init__("You have already started this study; you cannot take part twice.")
        self.participant = participant


# --- entry and consent ------------------------------------------------------------------------------------


def touch(participant: Participant) -> None:
    """Record that the participant was just here (the only input to dropout detection)."""
    now = timezone.now()
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=now)
    participant.last_seen_at = now


def enter_study(study: Study, params: EntryParams, known_tokens: Mapping[int, str] | None = None) -> Participant | None:
    """The participant this visit resumes, or None when the visitor must see the consent page.

    ``known_tokens`` maps study ids to the participant tokens this browser already holds. Nobody is created
    here: a participant exists only once they agree.
    """
    token = (known_tokens or {}).get(study.pk)
    participant = selectors.participant_by_token(study, token) if token else None
    if participant is None and study.read_url_ids:
        participant = selectors.participant_by_pid(study, params.prolific_pid)
    if participant is not None:
        touch(participant)
    return participant


def decline_consent(study: Study) -> None:
    """Someone said no: count them and keep nothing else (no row, no identifier, no timestamp)."""
    Study.objects.filter(pk=study.pk).update(declined_count=F("declined_count") + 1)


def accept_consent(study: Study, params: EntryParams, condition_key: str | None = None) -> Participant:
    """Create the participant at the moment of consent, assign a condition and store the configured ids."""
    pid = params.prolific_pid if study.read_url_ids else ""
    try:
        with transaction.atomic():
            # The study row lock serialises assignment, so concurrent arrivals see each other's counts.
            study = Study.objects.select_for_update().get(pk=study.pk)
            if not study.is_open:
                raise StudyClosed("This study is not accepting participants at the moment.")
            existing = selectors.participant_by_pid(study, pid)
            if existing is not None:
                raise AlreadyParticipating(existing)
            now = timezone.now()
            return Participant.objects.create(
                study=study,
                condition=_assign_condition(study, condition_key),
                prolific_pid=pid,
                prolific_study_id=params.study_id if study.read_url_ids else "",
                prolific_session_id=params.session_id if study.read_url_ids else "",
                step=Step.INSTRUCTIONS,
                consented_at=now,
                last_seen_at=now,
            )
    except IntegrityError:
        # Two tabs consenting at once with the same PROLIFIC_PID: the unique constraint let one through.
        existing = selectors.participant_by_pid(study, pid)
        if existing is None:
            raise
        raise AlreadyParticipating(existing) from None


def _assign_condition(study: Study, condition_key: str | None) -> Condition:
    counts = selectors.condition_counts(study)
    if not counts:
        raise ServiceError("This study has no conditions configured.")
    if study.assignment == Study.Assignment.URL and condition_key:
        for condition, _ in counts:
            if condition.key == condition_key:
                return condition
    # Balanced: the least-filled condition; ties are broken at random so no condition is favoured by order.
    fewest = min(n for _, n in counts)
    return secrets.choice([c for c, n in counts if n == fewest])


# --- instructions and rounds ------------------------------------------------------------------------------


def finish_instructions(participant: Participant) -> Participant:
    with transaction.atomic():
        p = _locked(participant)
        if p.step == Step.INSTRUCTIONS:
            p.step = Step.ROUNDS if selectors.round_count(p.study) else Step.SURVEY
            p.round_index = 0
            p.save(update_fields=["step", "round_index"])
    return p


def start_round(participant: Participant) -> ParticipantRound | None:
    """The participant's current round (get or create). A human partner goes through the waiting room, so
    None means "still waiting" (or, after a timeout with action "end", that the participant was ended)."""
    if participant.condition.partner == Condition.Partner.HUMAN:
        return pair_or_wait(participant)
    with transaction.atomic():
        p = _locked(participant)
        if p.step != Step.ROUNDS:
            return None
        existing = selectors.participant_round(p, p.round_index)
        if existing is not None:
            return existing
        return _agent_round(p, p.condition.agent_name)


def pair_or_wait(participant: Participant) -> ParticipantRound | None:
    """The waiting room for a human partner, one call per arrival or poll.

    Pairs with the oldest open ticket of the same study, condition and round whose owner is still on the
    waiting page: ONE match with both people, the earlier arrival in the condition's participant seat.
    After ``study.pairing_timeout_s`` the study's timeout action applies: play with the fallback agent, or
    end the participant's session. Returns the round once there is one, else None.
    """
    with transaction.atomic():
        # One lock per condition serialises every waiting room decision in it, so two people polling at the
        # same moment cannot both pair with a third, and no two locks are ever taken in opposite orders.
        Condition.objects.select_for_update().get(pk=participant.condition_id)
        p = _locked(participant)
        if p.step != Step.ROUNDS:
            return None
        existing = selectors.participant_round(p, p.round_index)
        if existing is not None:
            return existing  # the partner's poll paired us while we waited for the lock
        now = timezone.now()
        ticket, _ = PairingTicket.objects.get_or_create(participant=p, round_index=p.round_index)
        # The timeout is checked first: what the waiting page promised happens at the stated time, and an
        # expired ticket is never paired (newcomers skip it too), so both sides see the same rule.
        if not selectors.pairing_timed_out(ticket, p.study, now):
            partner_ticket = _partner_ticket(p, now)
            return _pair(partner_ticket, ticket, now) if partner_ticket is not None else None
        study = p.study
        if study.pairing_timeout_action == Study.PairingTimeout.AGENT and study.pairing_fallback_agent:
            _resolve(ticket, "timeout-agent", now)
            return _agent_round(p, study.pairing_fallback_agent)
        _resolve(ticket, "timeout-end", now)
        p.step = Step.ENDED
        p.save(update_fields=["step"])
        return None


def _partner_ticket(p: Participant, now) -> PairingTicket | None:
    study = p.study
    present_since = now - timedelta(seconds=WAITING_PRESENCE_S)
    not_expired_since = now - timedelta(seconds=study.pairing_timeout_s)
    return (
        PairingTicket.objects.select_related("participant")
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
        .order_by("created_at", "pk")
        .first()
    )


def _pair(earlier: PairingTicket, later: PairingTicket, now) -> ParticipantRound:
    first, second = earlier.participant, later.participant
    condition = second.condition
    seat_first = condition.participant_seat
    seat_second = 1 - seat_first  # two-seat games only (Gnomes at Night)
    controllers = [SeatController("human"), SeatController("human")]
    match = match_services.create_match(
        first.study.game_id, controllers, seed=_new_seed(), options=_round_options(second), host_seat=None
    )
    ParticipantRound.objects.create(
        participant=first, round_index=earlier.round_index, match=match, seat_index=seat_first,
        partner_participant=second,
    )
    mine = ParticipantRound.objects.create(
        participant=second, round_index=later.round_index, match=match, seat_index=seat_second,
        partner_participant=first,
    )
    _resolve(earlier, "paired", now)
    _resolve(later, "paired", now)
    return mine


def _agent_round(p: Participant, agent_name: str) -> ParticipantRound:
    seat = p.condition.participant_seat
    controllers = [SeatController("agent", agent_name=agent_name)] * 2
    controllers[seat] = SeatController("human")
    match = match_services.create_match(
        p.study.game_id, controllers, seed=_new_seed(), options=_round_options(p), host_seat=None,
        schedule_agents=False,
    )
    # The agent may move first: queue it only once the match is committed, so a worker can see it.
    transaction.on_commit(partial(match_services.schedule_agent_turns, match))
    return ParticipantRound.objects.create(
        participant=p, round_index=p.round_index, match=match, seat_index=seat, partner_agent=agent_name
    )


def _round_options(p: Participant) -> dict:
    options = dict(p.study.rounds[p.round_index])
    if p.study.game_id == "gnomes":
        options["show_hints"] = p.condition.show_hints  # a UI option of Gnomes at Night only
        options["chat"] = p.condition.show_chat  # the mute condition: no chat at all, enforced by the engine
    return options


def _resolve(ticket: PairingTicket, outcome: str, now) -> None:
    ticket.outcome, ticket.resolved_at = outcome, now
    ticket.save(update_fields=["outcome", "resolved_at"])


def finish_round(participant: Participant, round_index: int) -> Participant:
    """Leave round ``round_index`` (0-based) once its match is over: on to the next round or the survey.

    Idempotent: a second POST for a round already left changes nothing.
    """
    with transaction.atomic():
        p = _locked(participant)
        if p.step != Step.ROUNDS or p.round_index != round_index:
            return p
        current = selectors.participant_round(p, round_index)
        if current is None or not selectors.round_is_over(current):
            raise ServiceError("This round is not over yet.")
        if round_index + 1 < selectors.round_count(p.study):
            p.round_index = round_index + 1
        else:
            p.step = Step.SURVEY
        p.save(update_fields=["step", "round_index"])
    return p


def end_round_without_partner(participant: Participant, round_index: int) -> Participant:
    """Let a participant go on when their human partner left mid-round: the match is aborted (recorded as not
    finished) and the participant moves on as after any other round. Refused while the partner is still there."""
    current = selectors.participant_round(participant, round_index)
    if current is None or not selectors.partner_gone(current):
        raise ServiceError("Your partner is still in this round.")
    match_services.abort_match(current.match_id, "partner left the round")
    return finish_round(participant, round_index)


# --- survey and completion -----------------------------------------------------------------------------------


def submit_survey(participant: Participant, answers: Mapping[str, int]) -> Participant:
    """Store one answer per Likert item (every item, each 1..scale) and complete the participant."""
    study = participant.study
    keys = [item["key"] for item in study.likert_items]
    for key in keys:
        value = answers.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= study.likert_scale:
            raise ServiceError(f"Please answer every question (missing or invalid: {key}).")
    with transaction.atomic():
        p = _locked(participant)
        if p.step != Step.SURVEY:
            return p
        SurveyAnswer.objects.bulk_create([SurveyAnswer(participant=p, item_key=k, value=answers[k]) for k in keys])
        p.step = Step.COMPLETE
        p.completed_at = timezone.now()
        p.save(update_fields=["step", "completed_at"])
    return p


# --- helpers -----------------------------------------------------------------------------------------------------


def _locked(participant: Participant) -> Participant:
    # of=("self",): lock the participant row only, not the joined study and condition rows.
    return (
        Participant.objects.select_for_update(of=("self",))
        .select_related("study", "condition")
        .get(pk=participant.pk)
    )


def _new_seed() -> int:
    return secrets.randbelow(2**31)
