"""Studies and what participants do in them.

A ``Study`` is configured by researchers in the admin (or loaded from a preset in fixtures/). Each
``Participant`` is pseudonymous: a random token, the study's condition, and only the identifiers the
study is configured to read from the URL (Prolific's PROLIFIC_PID, STUDY_ID, SESSION_ID). Rounds are
ordinary matches of the match service; per-round measures are derived from their event log with its
server timestamps, so there is one source of truth.
"""

from __future__ import annotations

import secrets

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from gameplay.models import Match


def new_participant_token() -> str:
    return secrets.token_urlsafe(24)


def default_likert_items() -> list[dict]:
    return [
        {"key": "engagement", "prompt": "How engaged did you feel while playing?",
         "low": "Not at all engaged", "high": "Extremely engaged"},
        {"key": "satisfaction", "prompt": "How satisfied are you with how you and your partner played?",
         "low": "Not at all satisfied", "high": "Extremely satisfied"},
    ]


class Study(models.Model):
    class Assignment(models.TextChoices):
        BALANCED = "balanced", "Balanced random (between-subject)"
        URL = "url", "Fixed by the ?condition= URL parameter (piloting), else balanced"

    class PairingTimeout(models.TextChoices):
        AGENT = "agent", "Play the round with the fallback agent instead"
        END = "end", "End the participant's session (counted as not paired)"

    class AfterTimeout(models.TextChoices):
        WAIT = "wait", "Wait for a partner again at the next round (told how long)"
        AGENT = "agent", "Keep the fallback agent for the rest of the session (no more waiting)"

    class PartnerLeft(models.TextChoices):
        AGENT = "agent", "The fallback agent takes over their seat and the round goes on"
        END = "end", "The round ends without a result and the others go on to the next"

    slug = models.SlugField(max_length=80, unique=True, help_text="The study link is /s/<slug>/.")
    title = models.CharField(max_length=200)
    game_id = models.CharField(max_length=64, help_text="A registered game id, e.g. gnomes or santorini.")
    rounds = models.JSONField(
        default=list, help_text='Game options per round, in order, e.g. [{"round": 1}, {"round": 2}, …].'
    )
    consent_text = models.TextField()
    instructions = models.TextField()
    likert_items = models.JSONField(default=default_likert_items, help_text="[{key, prompt, low, high}, …]")
    likert_scale = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(2), MaxValueValidator(11)], help_text="Points on every item."
    )
    completion_message = models.TextField(default="Thank you for taking part!")
    completion_code = models.CharField(max_length=64, blank=True, help_text="Shown at the end (e.g. Prolific's).")
    completion_redirect_url = models.URLField(
        max_length=500, blank=True,
        help_text="If set, the completion page links here (a button; it never leaves by itself).",
    )
    assignment = models.CharField(max_length=8, choices=Assignment.choices, default=Assignment.BALANCED)
    read_url_ids = models.BooleanField(
        default=True, help_text="Store PROLIFIC_PID, STUDY_ID and SESSION_ID from the study link."
    )
    pairing_timeout_s = models.PositiveIntegerField(
        default=120, help_text="Seconds a participant waits for a human partner before the timeout action."
    )
    pairing_timeout_action = models.CharField(
        max_length=8, choices=PairingTimeout.choices, default=PairingTimeout.AGENT
    )
    pairing_after_timeout = models.CharField(
        max_length=8, choices=AfterTimeout.choices, default=AfterTimeout.AGENT,
        help_text="After a wait that timed out with the fallback agent: whether the participant waits again in "
        "later rounds or keeps the agent for the rest of the session.",
    )
    pairing_fallback_agent = models.CharField(
        max_length=100, blank=True, help_text="Agent that takes the missing participant seats when pairing times out."
    )
    partner_left_action = models.CharField(
        max_length=8, choices=PartnerLeft.choices, default=PartnerLeft.END,
        help_text="What happens to a round when a participant in it leaves (their page closed or offline for "
        "PRESENCE_LEFT_AFTER_SECONDS, 20 s by default); the one who stays sees it within 30 s.",
    )
    dropout_after_s = models.PositiveIntegerField(
        default=1800, help_text="A participant silent this long before completing counts as dropped out."
    )
    is_open = models.BooleanField(default=False, help_text="Closed studies accept no new participants.")
    require_pid = models.BooleanField(
        default=False,
        help_text="Refuse consent when the study link carries no valid PROLIFIC_PID (needs the ids to be read).",
    )
    max_participants = models.PositiveIntegerField(
        default=0, help_text="Stop enrolling at this many participants; a full study shows the closed page. 0 = no cap."
    )
    declined_count = models.PositiveIntegerField(
        default=0, help_text="People who declined consent (nothing else is kept about them)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "studies"

    def __str__(self) -> str:
        return self.title

    @property
    def reused_pid_count(self) -> int:
        """Participants whose PROLIFIC_PID came back from another browser (a flag on the researcher pages)."""
        return self.participants.filter(pid_reuse_count__gt=0).count()


PARTICIPANT, AGENT = "participant", "agent"


class Condition(models.Model):
    """What a participant of this condition meets: who plays every seat, and options over every round's.

    ``seats`` has one entry per seat of the game: ``{"kind": "participant"}`` or ``{"kind": "agent", "agent":
    "<agent name>"}``. With k >= 2 participant seats the waiting room gathers k participants of this condition
    for each round (in arrival order, seat by seat). ``options`` is merged over every round's game options, so
    a condition can switch chat off (``{"chat": false}``) or hints on without touching the rounds.
    Validation (gameplay.studies.validation) keeps both consistent with the study's game.
    """

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="conditions")
    key = models.SlugField(max_length=40, help_text="Short id used in exports and ?condition=.")
    label = models.CharField(max_length=100)
    seats = models.JSONField(
        default=list,
        help_text='Who plays each seat: [{"kind": "participant"}, {"kind": "agent", "agent": "random"}, …].',
    )
    options = models.JSONField(
        default=dict, blank=True, help_text='Game options merged over every round\'s, e.g. {"chat": false}.'
    )

    class Meta:
        ordering = ["study", "pk"]
        constraints = [models.UniqueConstraint(fields=["study", "key"], name="unique_condition_key")]

    def __str__(self) -> str:
        return f"{self.study.slug}:{self.key}"

    @property
    def participant_seats(self) -> list[int]:
        return [
            i for i, seat in enumerate(self.seats or []) if isinstance(seat, dict) and seat.get("kind") == PARTICIPANT
        ]

    @property
    def agent_seats(self) -> dict[int, str]:
        return {
            i: str(seat.get("agent", ""))
            for i, seat in enumerate(self.seats or [])
            if isinstance(seat, dict) and seat.get("kind") == AGENT
        }

    @property
    def needs_partner(self) -> bool:
        """More than one participant seat: rounds start only once the waiting room has filled them."""
        return len(self.participant_seats) > 1

    @property
    def partner_summary(self) -> str:
        """Who the participant plays with, in a few words (e.g. "agent random", "another participant")."""
        others = len(self.participant_seats) - 1
        parts = []
        if others == 1:
            parts.append("another participant")
        elif others > 1:
            parts.append(f"{others} other participants")
        parts += [f"agent {name}" for name in self.agent_seats.values()]
        return " and ".join(parts) or "nobody (solo)"


class Participant(models.Model):
    class Step(models.TextChoices):
        CONSENT = "consent", "Consent"
        INSTRUCTIONS = "instructions", "Instructions"
        ROUNDS = "rounds", "Playing rounds"
        SURVEY = "survey", "Survey"
        COMPLETE = "complete", "Complete"
        ENDED = "ended", "Ended early (not paired)"

    study = models.ForeignKey(Study, on_delete=models.PROTECT, related_name="participants")
    condition = models.ForeignKey(Condition, on_delete=models.PROTECT, related_name="participants")
    token = models.CharField(max_length=64, unique=True, default=new_participant_token, editable=False)
    prolific_pid = models.CharField(max_length=64, blank=True)
    prolific_study_id = models.CharField(max_length=64, blank=True)
    prolific_session_id = models.CharField(max_length=64, blank=True)
    step = models.CharField(max_length=16, choices=Step.choices, default=Step.CONSENT)
    round_index = models.PositiveSmallIntegerField(default=0, help_text="0-based index of the current round.")
    created_at = models.DateTimeField(auto_now_add=True)
    consented_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # A flag for researchers: this participant's PROLIFIC_PID was used again from a browser that does not hold
    # this participant (recorded by that browser's POST, once per browser; the GET that shows it writes nothing).
    pid_reuse_count = models.PositiveIntegerField(
        default=0, help_text="Times this PROLIFIC_PID came back from another browser (refused each time)."
    )
    pid_reused_at = models.DateTimeField(null=True, blank=True, help_text="The last such time.")

    class Meta:
        ordering = ["study", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["study", "prolific_pid"],
                condition=~models.Q(prolific_pid=""),
                name="one_participation_per_prolific_pid",
            )
        ]

    def __str__(self) -> str:
        return f"participant {self.pk} of {self.study.slug}"


class ParticipantRound(models.Model):
    """One round a participant played (or is playing): the match and the seat they hold in it."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="rounds")
    round_index = models.PositiveSmallIntegerField()
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="study_rounds")
    seat_index = models.PositiveSmallIntegerField()
    partner_participant = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="One other participant in the match (the first by seat), if any.",
    )
    partner_agent = models.CharField(
        max_length=100, blank=True, help_text="The first agent seat's agent name, if any."
    )
    started_at = models.DateTimeField(auto_now_add=True)

    class Departure(models.TextChoices):
        NONE = "", "Nobody left"
        LEFT = "left", "This participant left the round"
        PARTNER_LEFT_AGENT = "partner-left-agent", "A partner left; the fallback agent took their seat"
        PARTNER_LEFT_END = "partner-left-end", "A partner left; the round ended"

    departure = models.CharField(max_length=24, choices=Departure.choices, default=Departure.NONE, blank=True)

    class Meta:
        ordering = ["participant", "round_index"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "round_index"], name="one_match_per_participant_round")
        ]


class PairingTicket(models.Model):
    """A participant waiting for a human partner for one round (the waiting room)."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="tickets")
    round_index = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, blank=True, help_text="paired, timeout-agent or timeout-end.")

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "round_index"], name="one_ticket_per_participant_round")
        ]


class SurveyAnswer(models.Model):
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="answers")
    item_key = models.CharField(max_length=40)
    value = models.PositiveSmallIntegerField()
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["participant", "item_key"]
        constraints = [models.UniqueConstraint(fields=["participant", "item_key"], name="one_answer_per_item")]
