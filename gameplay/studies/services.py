"""Writes for the participant journey: consent, assignment, the comprehension check, rounds (with the waiting
room), survey, completion.

Every step is a small transaction that checks the participant's current step first, so a double click, a
second tab or a replayed POST cannot skip or repeat a step. Rounds are ordinary private matches created
through the match service, seated as the participant's condition says (participants, agents); the measures a
study reports come from those matches' event logs and the game's declared measures, so nothing is recorded
twice. Only POSTs reach this module: GET pages read through selectors.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import timedelta
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from gameplay.studies import questionnaire, selectors
from gameplay.studies.forms import EntryParams
from gameplay.studies.models import (
    ComprehensionAnswer,
    Condition,
    PairingTicket,
    Participant,
    ParticipantRound,
    Study,
    SurveyAnswer,
)
from gameplay.writes import seat_claims
from gameplay.writes import services as match_services
from gameplay.writes.services import SeatController, ServiceError

logger = logging.getLogger(__name__)

Step = Participant.Step

# The outcome of a ticket left open when its participant kept the fallback agent instead (see pair_or_wait).
KEPT_AGENT = "kept-agent"

# A waiting participant's page polls every 2 s and each poll touches last_seen_at. Someone silent for longer
# than this has closed the page: pairing them would leave their partner alone in a round that never ends.
WAITING_PRESENCE_S = 15


class StudyClosed(ServiceError):
    pass


class StudyFull(StudyClosed):
    """The study has its configured number of participants: newcomers see the closed page."""


class PidRequired(ServiceError):
    """The study requires a PROLIFIC_PID and the link carried none that is well formed."""

    def __init__(self):
        super().__init__("This study can only be started from the link on Prolific (it needs your Prolific ID).")


class AlreadyParticipating(ServiceError):
    """The same PROLIFIC_PID came back in a browser that does not hold its participant: refuse, and never
    hand that participant (or its token) to this browser."""

    def __init__(self):
        super().__init__("This Prolific ID has already taken part in this study.")


# --- entry and consent ------------------------------------------------------------------------------------


def touch(participant: Participant) -> None:
    """Record that the participant was just here (the only input to dropout and partner-gone detection).

    Called on POSTs only (every participant POST, and the pages' heartbeat POST): a GET never writes.
    """
    now = timezone.now()
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=now)
    participant.last_seen_at = now


def enter_study(study: Study, known_tokens: Mapping[int, str] | None = None) -> Participant | None:
    """The participant this browser already holds in ``study`` (it resumes), or None.

    ``known_tokens`` maps study ids to the participant tokens this browser's session holds. Only the session
    resumes a participant: a PROLIFIC_PID in the link never does (anyone can type someone else's id), it only
    tells the caller that this id has already taken part (``selectors.participant_by_pid``). Nothing is
    written here: a participant exists only once they agree, and visits are recorded by POSTs.
    """
    token = (known_tokens or {}).get(study.pk)
    return selectors.participant_by_token(study, token) if token else None


def decline_consent(study: Study) -> None:
    """Someone said no: count them and keep nothing else (no row, no identifier, no timestamp)."""
    Study.objects.filter(pk=study.pk).update(declined_count=F("declined_count") + 1)


def record_pid_reuse(study: Study, prolific_pid: str) -> bool:
    """Flag for researchers that ``prolific_pid``'s participant was asked for again from another browser.

    Called from a POST (the consent form, or the already-taken-part page's form), once per browser: the GET that
    tells the person they have taken part writes nothing. Returns whether a participant had that id.
    """
    if not study.read_url_ids or not prolific_pid:
        return False
    updated = Participant.objects.filter(study=study, prolific_pid=prolific_pid).update(
        pid_reuse_count=F("pid_reuse_count") + 1, pid_reused_at=timezone.now()
    )
    return updated > 0


def accept_consent(study: Study, params: EntryParams, condition_key: str | None = None) -> Participant:
    """Create the participant at the moment of consent, assign a condition and store the configured ids.

    The study's enrolment rules are checked here: open, a PROLIFIC_PID if required, the id not used before, and
    the participant cap, all under the study row lock that also serialises assignment.
    """
    pid = params.prolific_pid if study.read_url_ids else ""
    try:
        with transaction.atomic():
            # The study row lock serialises assignment, so concurrent arrivals see each other's counts.
            study = Study.objects.select_for_update().get(pk=study.pk)
            if not study.is_open:
                raise StudyClosed("This study is not accepting participants at the moment.")
            if study.require_pid and not params.prolific_pid:
                raise PidRequired()
            if selectors.participant_by_pid(study, pid) is not None:
                raise AlreadyParticipating()
            if selectors.is_full(study):
                raise StudyFull("This study has all the participants it needs.")
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
        if selectors.participant_by_pid(study, pid) is None:
            raise
        raise AlreadyParticipating() from None


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
#
# A round's match is created in the POST that leads to the round (finishing the instructions, Continue after a
# round, the round page's "Start round" form, or the waiting room's poll), never by a GET of the round page.


def finish_instructions(participant: Participant) -> Participant:
    """On from the instructions: to the comprehension check when the study has one, else to round 1."""
    with transaction.atomic():
        p = _locked(participant)
        if p.step == Step.INSTRUCTIONS:
            if p.study.comprehension_items:
                p.step = Step.COMPREHENSION
            else:
                _to_first_round(p)
            p.save(update_fields=["step", "round_index"])
    return _begin_round(p)


def _to_first_round(p: Participant) -> None:
    p.step = Step.ROUNDS if selectors.round_count(p.study) else Step.SURVEY
    p.round_index = 0


def submit_comprehension(participant: Participant, choices: Mapping[str, int]) -> tuple[Participant, list[str]]:
    """Grade one try at the comprehension check on the server and record every answer of it.

    All right: on to round 1. Wrong answers with tries left: the participant stays on the check and the keys of
    the wrong questions are returned (the page marks them, never the right answers). After the last failed try
    the study's ``comprehension_fail_action`` applies: screened out (the session ends) or on to round 1 anyway;
    either way ``comprehension_passed`` is False. A replayed POST after the check changes nothing."""
    with transaction.atomic():
        p = _locked(participant)
        if p.step != Step.COMPREHENSION:
            return p, []
        study, attempt = p.study, p.comprehension_attempts + 1
        items = study.comprehension_items
        wrong = questionnaire.wrong_keys(items, choices)
        ComprehensionAnswer.objects.bulk_create([
            ComprehensionAnswer(participant=p, attempt=attempt, item_key=item["key"],
                                choice=choices.get(item["key"]) or 0, correct=item["key"] not in wrong)
            for item in items
        ])
        p.comprehension_attempts = attempt
        if not wrong:
            p.comprehension_passed = True
            _to_first_round(p)
        elif attempt >= study.comprehension_max_attempts:
            p.comprehension_passed = False
            if study.comprehension_fail_action == Study.ComprehensionFailed.CONTINUE:
                _to_first_round(p)
            else:
                p.step = Step.SCREENED
        p.save(update_fields=["step", "round_index", "comprehension_attempts", "comprehension_passed"])
    return _begin_round(p), wrong


def start_round(participant: Participant) -> ParticipantRound | None:
    """The participant's current round (get or create). A condition with several participant seats goes
    through the waiting room, so None means "still waiting" (or, after a timeout with action "end", that the
    participant was ended); None also when the participant is not playing rounds (any more)."""
    if participant.condition.needs_partner:
        return pair_or_wait(participant)
    with transaction.atomic():
        p = _locked(participant)
        if p.step != Step.ROUNDS:
            return None
        existing = selectors.participant_round(p, p.round_index)
        if existing is not None:
            return existing
        return _create_round([p], p.round_index, fallback_agent="")


def _begin_round(p: Participant) -> Participant:
    """After a step moved the participant to a round: create it (or join the waiting room) right away.

    A failure here (e.g. an agent removed since the study was checked) leaves the participant on the round
    page, whose "Start round" form tries again; the step itself has already been saved.
    """
    if p.step == Step.ROUNDS:
        try:
            start_round(p)
        except ServiceError as err:
            logger.warning("study %s participant %s: round %s could not start: %s", p.study_id, p.pk,
                           p.round_index + 1, err)
        p.refresh_from_db(fields=["step", "round_index"])
    return p


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
        p = _locked(participant)
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
            return _create_round([p], p.round_index, fallback_agent=study.pairing_fallback_agent)
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
            return _create_round(people, p.round_index, fallback_agent="", me=p)
        if study.pairing_timeout_action == Study.PairingTimeout.AGENT and study.pairing_fallback_agent:
            _resolve(ticket, selectors.TIMED_OUT_TO_AGENT, now)
            return _create_round([p], p.round_index, fallback_agent=study.pairing_fallback_agent)
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


def _create_round(
    people: list[Participant], round_index: int, *, fallback_agent: str, me: Participant | None = None
) -> ParticipantRound:
    """One private match for ``people`` (in arrival order, seated in the condition's participant seats in seat
    order), agents in the condition's agent seats and ``fallback_agent`` in participant seats nobody took.
    Returns the round of ``me`` (default: the first person)."""
    condition = people[0].condition
    study = people[0].study
    participant_seats = condition.participant_seats
    seat_of = dict(zip((x.pk for x in people), participant_seats, strict=False))
    agents = dict(condition.agent_seats)
    for seat in participant_seats[len(people):]:
        agents[seat] = fallback_agent
    controllers = [
        SeatController("agent", agent_name=agents[i]) if i in agents else SeatController("human")
        for i in range(len(condition.seats))
    ]
    match = match_services.create_match(
        study.game_id, controllers, seed=_new_seed(), options=round_options(study, condition, round_index),
        host_seat=None, schedule_agents=False, private=True,
    )
    if agents:
        # An agent may move first: queue it only once the match is committed, so a worker can see it.
        transaction.on_commit(partial(match_services.schedule_agent_turns, match))
    # Each participant's seat is held by the participant's browser (its round page hands the seat's cookie over):
    # the seat link alone opens nothing (issue 37, point 4).
    seat_claims.bind_seats(match, [seat_of[person.pk] for person in people])
    first_agent = agents[min(agents)] if agents else ""
    rounds = {}
    for person in people:
        others = sorted((x for x in people if x.pk != person.pk), key=lambda x: seat_of[x.pk])
        rounds[person.pk] = ParticipantRound.objects.create(
            participant=person, round_index=round_index, match=match, seat_index=seat_of[person.pk],
            partner_participant=others[0] if others else None, partner_agent=first_agent,
        )
    return rounds[(me or people[0]).pk]


def round_options(study: Study, condition: Condition, round_index: int) -> dict:
    """The game options of one round as this condition plays it: the round's, with the condition's on top."""
    return {**study.rounds[round_index], **(condition.options or {})}


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
    return _begin_round(p)


# The reasons recorded in the match's log when a participant left a round.
PARTNER_LEFT_REASON = "partner left the round"
LEFT_REASON = "participant left the round"


def apply_partner_left(participant: Participant, round_index: int) -> ParticipantRound:
    """A partner of this participant left the running round (``selectors.partners_left``): apply the study's
    rule. With ``partner_left_action`` "agent" (and a fallback agent) the agent takes over every seat whose person
    left and the round goes on; otherwise the round ends without a result (aborted), and everyone still in it gets
    the Continue button. Each round of the match records its ``departure``.

    Asked by the page of the one who stays (its Continue area posts as soon as the partner has left); refused with
    ServiceError, changing nothing, while every partner is still there. A round already handled is returned as
    it is. With three or more people each one who leaves is handled when they have left (one whose seat an agent
    took is no longer counted)."""
    current = selectors.participant_round(participant, round_index)
    if current is None:
        raise ServiceError("There is no such round.")
    gone = selectors.partners_left(current)
    if not gone:
        raise ServiceError("Your partner is still in this round.")
    study = participant.study
    agent = study.pairing_fallback_agent
    outcome = ParticipantRound.Departure.PARTNER_LEFT_END
    if study.partner_left_action == Study.PartnerLeft.AGENT and agent:
        try:
            for seat_index in gone:
                match_services.hand_seat_to_agent(current.match_id, seat_index, agent, LEFT_REASON)
            outcome = ParticipantRound.Departure.PARTNER_LEFT_AGENT
        except ServiceError:
            # E.g. the agent's configuration was deleted since the study was checked: the round must still not
            # wait for someone who left (and the page that asked would ask again), so it ends instead.
            logger.exception("study %s: agent %r could not take over in match %s", study.slug, agent,
                             current.match_id)
    if outcome == ParticipantRound.Departure.PARTNER_LEFT_END:
        match_services.abort_match(current.match_id, PARTNER_LEFT_REASON)
    rounds = ParticipantRound.objects.filter(match_id=current.match_id)
    # Leaving is recorded over an earlier "a partner left" (they stayed then); the others keep their first record.
    rounds.filter(seat_index__in=gone).update(departure=ParticipantRound.Departure.LEFT)
    rounds.exclude(seat_index__in=gone).filter(departure="").update(departure=outcome)
    logger.info("study %s match %s: seats %s left; %s", study.slug, current.match_id, gone, outcome)
    current.refresh_from_db()
    return current


def end_round_without_agent(participant: Participant, round_index: int) -> Participant:
    """Let a participant go on when the round's agent has not moved for AGENT_WAY_OUT_SECONDS: the match is
    aborted ("agent did not answer", recorded as not finished) and the participant moves on as after any other
    round. Refused, changing nothing, before that time or when the participant may move. Idempotent: a round
    already over is simply left."""
    current = selectors.participant_round(participant, round_index)
    if current is not None and not selectors.round_is_over(current):
        match_services.end_match_for_silent_agent(current.match_id, current.seat_index)
    return finish_round(participant, round_index)


# --- survey and completion -----------------------------------------------------------------------------------


def submit_survey(participant: Participant, answers: Mapping[str, object]) -> Participant:
    """Store one answer per item (every Likert item 1..scale, each question as its kind allows; an optional
    question left blank is stored blank), with each attention check's outcome, and complete the participant."""
    study = participant.study
    try:
        recorded = questionnaire.record_all(study.likert_items, study.likert_scale, study.questions or [], answers)
    except questionnaire.AnswerError as err:
        raise ServiceError(str(err)) from None
    with transaction.atomic():
        p = _locked(participant)
        if p.step != Step.SURVEY:
            return p
        SurveyAnswer.objects.bulk_create([SurveyAnswer(participant=p, **vars(r)) for r in recorded])
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
