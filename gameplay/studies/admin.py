"""Researcher admin: studies are configured here; what participants did is shown read-only.

Participant tokens never appear (they are the participants' credentials), and nothing recorded about a
participant can be edited: the data are what happened.
"""

from django.contrib import admin
from django.db import models
from django.db.models import Count
from django.urls import reverse
from django.utils.html import format_html

from gameplay.studies import selectors
from gameplay.studies.admin_forms import ConditionAdminForm, ConditionFormSet, StudyAdminForm
from gameplay.studies.models import Condition, PairingTicket, Participant, ParticipantRound, Study, SurveyAnswer


class ConditionInline(admin.TabularInline):
    model = Condition
    form = ConditionAdminForm
    formset = ConditionFormSet
    extra = 0
    fields = ("key", "label", "seats_text", "options_text")


@admin.register(Study)
class StudyAdmin(admin.ModelAdmin):
    form = StudyAdminForm
    list_display = (
        "title",
        "slug",
        "game_id",
        "is_open",
        "assignment",
        "participant_count",
        "declined_count",
        "study_link",
    )
    list_filter = ("is_open", "game_id")
    search_fields = ("title", "slug")
    readonly_fields = ("declined_count", "created_at")
    inlines = [ConditionInline]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}  # a bare domain means https
    fieldsets = (
        (None, {"fields": ("title", "slug", "game_id", "is_open", "rounds", "rounds_game")}),
        (
            "Participant pages",
            {
                "fields": (
                    "consent_text",
                    "instructions",
                    "likert_items",
                    "likert_scale",
                    "completion_message",
                    "completion_code",
                    "completion_redirect_url",
                )
            },
        ),
        (
            "Assignment and pairing",
            {
                "fields": (
                    "assignment",
                    "read_url_ids",
                    "require_pid",
                    "max_participants",
                    "pairing_timeout_s",
                    "pairing_timeout_action",
                    "pairing_after_timeout",
                    "pairing_fallback_agent",
                    "partner_left_action",
                    "dropout_after_s",
                )
            },
        ),
        ("Counts", {"fields": ("declined_count", "created_at")}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_participants=Count("participants"))

    @admin.display(description="participants", ordering="n_participants")
    def participant_count(self, obj):
        return obj.n_participants

    @admin.display(description="link")
    def study_link(self, obj):
        url = reverse("study:entry", args=[obj.slug])
        return format_html('<a href="{}">{}</a>', url, url)


class ReadOnlyAdmin(admin.ModelAdmin):
    """View-only: records of what participants did are never added or edited by hand."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ParticipantRoundInline(admin.TabularInline):
    model = ParticipantRound
    fk_name = "participant"
    extra = 0
    fields = ("round_index", "match", "seat_index", "partner_participant", "partner_agent", "started_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SurveyAnswerInline(admin.TabularInline):
    model = SurveyAnswer
    extra = 0
    fields = ("item_key", "value", "answered_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Participant)
class ParticipantAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "study",
        "condition",
        "step",
        "current_round",
        "dropped_out",
        "consented_at",
        "completed_at",
        "last_seen_at",
        "prolific_pid",
        "pid_reused",
    )
    list_filter = ("study", "condition", "step")
    list_select_related = ("study", "condition")
    search_fields = ("prolific_pid", "prolific_session_id")
    exclude = ("token",)  # the participant's credential
    inlines = [ParticipantRoundInline, SurveyAnswerInline]

    @admin.display(description="round")
    def current_round(self, obj):
        return obj.round_index + 1 if obj.step == Participant.Step.ROUNDS else "-"

    @admin.display(description="PID reused from another browser", ordering="pid_reuse_count")
    def pid_reused(self, obj):
        if not obj.pid_reuse_count:
            return "-"
        return f"{obj.pid_reuse_count}× (last {obj.pid_reused_at:%Y-%m-%d %H:%M})" if obj.pid_reused_at else str(
            obj.pid_reuse_count)

    @admin.display(description="dropped out at")
    def dropped_out(self, obj):
        return selectors.dropout_step(obj) or "-"


@admin.register(ParticipantRound)
class ParticipantRoundAdmin(ReadOnlyAdmin):
    list_display = (
        "participant",
        "round_number",
        "match",
        "seat_index",
        "partner_participant",
        "partner_agent",
        "started_at",
    )
    list_filter = ("participant__study", "participant__condition")
    list_select_related = ("participant", "participant__study", "match")

    @admin.display(description="round", ordering="round_index")
    def round_number(self, obj):
        return obj.round_index + 1


@admin.register(PairingTicket)
class PairingTicketAdmin(ReadOnlyAdmin):
    list_display = ("participant", "round_number", "created_at", "resolved_at", "outcome")
    list_filter = ("outcome", "participant__study")

    @admin.display(description="round", ordering="round_index")
    def round_number(self, obj):
        return obj.round_index + 1


@admin.register(SurveyAnswer)
class SurveyAnswerAdmin(ReadOnlyAdmin):
    list_display = ("participant", "item_key", "value", "answered_at")
    list_filter = ("participant__study", "item_key")
