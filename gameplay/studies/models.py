"""Studies and what participants do in them.

A ``Study`` is configured by researchers in the admin (or loaded from a preset in fixtures/). Each
``Participant`` is pseudonymous: a random token, the study's condition, and only the identifiers the
study is configured to read from the URL (Prolific's PROLIFIC_PID, STUDY_ID, SESSION_ID). Rounds are
ordinary matches of the match service; per-round measures are derived from their event log with its
server timestamps, so there is one source of truth.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

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


def default_fail_message() -> str:
    return (
        "Thank you for your time. Your answers show that the rules were not clear enough for you to play this "
        "study, so it ends here for you. This is not a judgement of you."
    )


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

    class ComprehensionFailed(models.TextChoices):
        END = "end", "Screen them out: the session ends with the screen-out message (and code)"
        CONTINUE = "continue", "Let them play on (recorded as failed in the exports)"

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
    # Questionnaire items beyond the Likert grid, answered after it on the survey page. Each is an object with a
    # key, a kind (single, multiple, number or text), a prompt and the kind's fields; an "expected" answer makes
    # it an attention check (gameplay.studies.questionnaire; the rules: gameplay.studies.questionnaire_validation).
    questions = models.JSONField(
        default=list, blank=True,
        help_text='[{key, kind: single|multiple|number|text, prompt, options, min, max, integer, max_length, '
        'required, expected}, …], after the Likert items.',
    )
    # The comprehension check between the instructions and round 1: single-choice questions whose right answer
    # stays on the server; a participant has comprehension_max_attempts tries to answer them all right.
    comprehension_items = models.JSONField(
        default=list, blank=True,
        help_text="[{key, prompt, options, answer}, …]; empty: no comprehension check.",
    )
    comprehension_max_attempts = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="Tries at answering every comprehension question right (the wrong ones are marked each time).",
    )
    comprehension_fail_action = models.CharField(
        max_length=8, choices=ComprehensionFailed.choices, default=ComprehensionFailed.END,
        help_text="What happens after the last failed try.",
    )
    comprehension_fail_message = models.TextField(
        default=default_fail_message, help_text="Shown to a participant screened out by the comprehension check."
    )
    comprehension_fail_code = models.CharField(
        max_length=64, blank=True, help_text="A code for the screened-out page (e.g. Prolific's screen-out code)."
    )
    # Payment: payments.csv gives every participant the base payment (once complete) and a bonus by this rule.
    base_payment = models.DecimalField(
        max_digits=8, decimal_places=2, default=Decimal("0.00"), validators=[MinValueValidator(Decimal("0"))],
        help_text="Paid to every participant who completes the study.",
    )
    payment_currency = models.CharField(max_length=3, default="GBP", help_text="ISO code, e.g. GBP or USD.")
    bonus_rule = models.JSONField(
        default=dict, blank=True,
        help_text='{"measure": "<measure>", "per_unit": 0.05, "cap": 1.0, "over": "sum"|"mean"}; {}: no bonus.',
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
    allow_slow_agents = models.BooleanField(
        default=False,
        verbose_name="Allow slow agents",
        help_text="Let an agent play although check_agent measured its p95 think time on this game above its "
        "decision deadline (many of its moves would be random fallbacks); such agents are refused otherwise.",
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
        COMPREHENSION = "comprehension", "Comprehension check"
        ROUNDS = "rounds", "Playing rounds"
        SURVEY = "survey", "Survey"
        COMPLETE = "complete", "Complete"
        ENDED = "ended", "Ended early (not paired)"
        SCREENED = "screened", "Screened out (comprehension check)"

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
    comprehension_attempts = models.PositiveSmallIntegerField(default=0, help_text="Comprehension check tries made.")
    comprehension_passed = models.BooleanField(
        null=True, blank=True, help_text="Passed the comprehension check; empty while not taken (or none)."
    )

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
    """One questionnaire item as the participant answered it (a skipped optional item has no value).

    The kind, and whether an attention check was passed, are recorded when the answer is given, so later edits of
    the study's items never re-score what people answered."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="answers")
    item_key = models.CharField(max_length=40)
    kind = models.CharField(max_length=10, default="likert", help_text="likert, single, multiple, number or text.")
    value = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Likert: the point; single choice: the option's number (1 = first)."
    )
    number = models.FloatField(null=True, blank=True, help_text="A number item's answer.")
    choices = models.JSONField(default=list, blank=True, help_text="Multiple choice: the chosen options' numbers.")
    text = models.TextField(blank=True, help_text="A text item's answer.")
    passed = models.BooleanField(null=True, blank=True, help_text="Attention checks: the expected answer was given.")
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["participant", "item_key"]
        constraints = [models.UniqueConstraint(fields=["participant", "item_key"], name="one_answer_per_item")]


class ComprehensionAnswer(models.Model):
    """One comprehension question in one try: the option chosen and whether it was right (checked on the server:
    the right answers never reach the page)."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="comprehension_answers")
    attempt = models.PositiveSmallIntegerField(help_text="1 for the first try.")
    item_key = models.CharField(max_length=40)
    choice = models.PositiveSmallIntegerField(help_text="The option chosen (1 = first).")
    correct = models.BooleanField()
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["participant", "attempt", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "attempt", "item_key"], name="one_answer_per_try_and_item")
        ]
