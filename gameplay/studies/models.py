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

    slug = models.SlugField(max_length=80, unique=True, help_text="The study link is /s/<slug>/.")
    title = models.CharField(max_length=200)
    game_id = models.CharField(max_length=64, default="gnomes")
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
        max_length=500, blank=True, help_text="If set, the completion page links (and redirects) here."
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
    pairing_fallback_agent = models.CharField(
        max_length=100, blank=True, default="gnomes-comm", help_text="Agent used when pairing times out."
    )
    dropout_after_s = models.PositiveIntegerField(
        default=1800, help_text="A participant silent this long before completing counts as dropped out."
    )
    is_open = models.BooleanField(default=False, help_text="Closed studies accept no new participants.")
    declined_count = models.PositiveIntegerField(
        default=0, help_text="People who declined consent (nothing else is kept about them)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "studies"

    def __str__(self) -> str:
        return self.title


class Condition(models.Model):
    class Partner(models.TextChoices):
        HUMAN = "human", "Another participant"
        AGENT = "agent", "An agent"

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="conditions")
    key = models.SlugField(max_length=40, help_text="Short id used in exports and ?condition=.")
    label = models.CharField(max_length=100)
    partner = models.CharField(max_length=8, choices=Partner.choices)
    agent_name = models.CharField(max_length=100, blank=True, help_text="For agent partners: the agent's name.")
    show_chat = models.BooleanField(default=True)
    show_hints = models.BooleanField(default=False, help_text="Tips for talking to the agent (seeds/003).")
    participant_seat = models.PositiveSmallIntegerField(default=0, help_text="The participant's seat in each round.")

    class Meta:
        ordering = ["study", "pk"]
        constraints = [models.UniqueConstraint(fields=["study", "key"], name="unique_condition_key")]

    def __str__(self) -> str:
        return f"{self.study.slug}:{self.key}"


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
        Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    partner_agent = models.CharField(max_length=100, blank=True, help_text="Set when the partner was an agent.")
    started_at = models.DateTimeField(auto_now_add=True)

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
