"""Writes for the participant journey: entry and consent (with assignment), the instructions and the rounds.

Every step is a small transaction that checks the participant's current step first (under
``participant_lock.locked``), so a double click, a second tab or a replayed POST cannot skip or repeat a step.
Rounds are ordinary private matches created through the match service (``round_matches``), seated as the
participant's condition says (participants, agents); a condition with several participant seats goes through the
waiting room (``pairing``). The answers to the comprehension check and the survey are written by
``questionnaire_services``. The measures a study reports come from the rounds' event logs and the game's declared
measures, so nothing is recorded twice. Only POSTs reach this module: GET pages read through selectors.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from gameplay.studies import pairing, selectors
from gameplay.studies.forms import EntryParams
from gameplay.studies.models import Condition, Participant, ParticipantRound, Study
from gameplay.studies.participant_lock import locked
from gameplay.studies.round_matches import create_round
from gameplay.writes import absent_players
from gameplay.writes.services import ServiceError

logger = logging.getLogger(__name__)

Step = Participant.Step


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
        p = locked(participant)
        if p.step == Step.INSTRUCTIONS:
            if p.study.comprehension_items:
                p.step = Step.COMPREHENSION
            else:
                to_first_round(p)
            p.save(update_fields=["step", "round_index"])
    return begin_round(p)


def to_first_round(p: Participant) -> None:
    """Move ``p`` (locked, not saved) to round 1, or to the survey when the study has no rounds."""
    p.step = Step.ROUNDS if selectors.round_count(p.study) else Step.SURVEY
    p.round_index = 0


def start_round(participant: Participant) -> ParticipantRound | None:
    """The participant's current round (get or create). A condition with several participant seats goes
    through the waiting room, so None means "still waiting" (or, after a timeout with action "end", that the
    participant was ended); None also when the participant is not playing rounds (any more)."""
    if participant.condition.needs_partner:
        return pairing.pair_or_wait(participant)
    with transaction.atomic():
        p = locked(participant)
        if p.step != Step.ROUNDS:
            return None
        existing = selectors.participant_round(p, p.round_index)
        if existing is not None:
            return existing
        return create_round([p], p.round_index, fallback_agent="")


def begin_round(p: Participant) -> Participant:
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


def finish_round(participant: Participant, round_index: int) -> Participant:
    """Leave round ``round_index`` (0-based) once its match is over: on to the next round or the survey.

    Idempotent: a second POST for a round already left changes nothing.
    """
    with transaction.atomic():
        p = locked(participant)
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
    return begin_round(p)


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
                absent_players.hand_seat_to_agent(current.match_id, seat_index, agent, LEFT_REASON)
            outcome = ParticipantRound.Departure.PARTNER_LEFT_AGENT
        except ServiceError:
            # E.g. the agent's configuration was deleted since the study was checked: the round must still not
            # wait for someone who left (and the page that asked would ask again), so it ends instead.
            logger.exception("study %s: agent %r could not take over in match %s", study.slug, agent,
                             current.match_id)
    if outcome == ParticipantRound.Departure.PARTNER_LEFT_END:
        absent_players.abort_match(current.match_id, PARTNER_LEFT_REASON)
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
        absent_players.end_match_for_silent_agent(current.match_id, current.seat_index)
    return finish_round(participant, round_index)
