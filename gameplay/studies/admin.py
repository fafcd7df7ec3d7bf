"""Researcher admin: studies are configured here; what participants did is shown read-only.

Participant tokens never appear (they are the participants' credentials), and nothing recorded about a
participant can be edited: the data are what happened.
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Count
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET

from gameplay.studies import selectors, validation
from gameplay.studies.admin_forms import (
    MAX_ROWS,
    ConditionAdminForm,
    ConditionFormSet,
    RoundsField,
    StudyAdminForm,
    round_rows,
)
from gameplay.studies.admin_questionnaire import QUESTIONNAIRE_FIELDSET
from gameplay.studies.admin_seats import SeatsField, default_seats
from gameplay.studies.models import Condition, PairingTicket, Participant, ParticipantRound, Study, SurveyAnswer


class ConditionInline(admin.TabularInline):
    model = Condition
    form = ConditionAdminForm
    formset = ConditionFormSet
    extra = 0
    fields = ("key", "label", "seat_players", "options_text")

    def get_extra(self, request, obj=None, **kwargs):
        # A study without conditions shows one empty row: "Add another" needs scripts, a first condition must not.
        # Left untouched, the row is not saved.
        return 0 if obj is not None and obj.pk is not None and obj.conditions.exists() else 1


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

    class Media:
        js = ("js/study_admin.js",)  # redraws the rounds table and the seats when the game changes

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
                    "allow_slow_agents",
                    "partner_left_action",
                    "dropout_after_s",
                )
            },
        ),
        QUESTIONNAIRE_FIELDSET,
        ("Counts", {"fields": ("declined_count", "created_at")}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_participants=Count("participants"))

    # --- the game's tables: drawn for the game the form is drawn for, and redrawn when it changes -------------
    def get_urls(self):
        name = f"{self.opts.app_label}_{self.opts.model_name}_game_tables"
        view = self.admin_site.admin_view(require_GET(self.game_tables))
        return [path("game-tables/", view, name=name), *super().get_urls()]

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        form.tables_url = reverse(f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_game_tables")
        return form

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, ConditionInline):
            kwargs["form_kwargs"] = {**kwargs.get("form_kwargs", {}), "game_id": self._chosen_game(request, obj)}
        return kwargs

    @staticmethod
    def _chosen_game(request, obj) -> str | None:
        """The game the study form is drawn for (StudyAdminForm picks it the same way): the one sent, else on the
        add page the one in its address, else the study's; None leaves the default."""
        if request.method == "POST":
            return request.POST.get("game_id")
        if obj is None or obj.pk is None:  # the add page draws an unsaved study
            return request.GET.get("game_id")
        return obj.game_id

    @staticmethod
    def _positive(raw, default: int) -> int:
        return int(raw) if str(raw).isdigit() and int(raw) > 0 else default

    def game_tables(self, request):
        """The parts of the study form that depend on the game, drawn for ``?game_id=`` (``rows``: the rounds
        table's length): the rounds table and a condition's seats, named ``__seats__`` (static/js/study_admin.js
        puts each condition row's field name in its place). A GET that reads nothing but the registry and the agent
        directory; staff only, like every admin page."""
        if not (self.has_add_permission(request) or self.has_change_permission(request)):
            raise PermissionDenied
        spec = validation.game_spec(request.GET.get("game_id"))
        if spec is None:
            raise Http404("No such game.")
        rows = min(MAX_ROWS, self._positive(request.GET.get("rows"), round_rows(0)))
        rounds = RoundsField(spec, rows=rows)
        seats = SeatsField()
        seats.for_game(spec)
        seats_name = "__seats__"  # static/js/study_admin.js puts each condition row's field name in its place
        return TemplateResponse(request, "admin/studies/study/game_tables.html", {
            "spec": spec,
            "rounds": rounds.widget.render("rounds", rounds.prepare_value([])),
            "seats": seats.widget.render(seats_name, seats.prepare_value(default_seats(spec))),
        })

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
    fields = ("item_key", "kind", "value", "number", "choices", "text", "passed", "answered_at")
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
    list_display = ("participant", "item_key", "kind", "value", "number", "choices", "text", "passed", "answered_at")
    list_filter = ("participant__study", "item_key")
