"""Admin: LLM agent configurations (editable), the model calls they made, dialogue solver runs and the calls of the
evaluations made outside play (read-only)."""

from __future__ import annotations

import os

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from agents_app.models import AgentCall, AgentConfig, DialogueGeneration, EvalCall, SolverRun

PLAYED = "{} — has played matches; its ratings and transcripts refer to it, so it cannot be deleted"


@admin.register(AgentConfig)
class AgentConfigAdmin(admin.ModelAdmin):
    list_display = ["name", "model", "scaffold", "endpoint", "vision", "dialogue_steering"]
    list_filter = ["scaffold", "vision", "dialogue_steering"]
    search_fields = ["name", "model", "description"]
    readonly_fields = ["key_status", "capabilities", "created_at", "updated_at"]
    fieldsets = [
        (None, {"fields": ["name", "description"]}),
        (
            "Endpoint",
            {
                "fields": ["base_url", "model", "api_key_env", "key_status", "json_mode", "vision"],
                "description": "Keys are never stored: give the name of an environment variable of the workers "
                "that play the matches. Check a configuration with: python manage.py check_agent NAME",
            },
        ),
        ("Sampling and limits", {"fields": ["temperature", "max_tokens", "timeout_s", "http_retries",
                                            "decision_deadline_s", "context_tokens"]}),
        (
            "Answers",
            {
                "fields": ["reply_format", "retries", "explain_limit", "chat_replies", "history_moves", "capabilities"],
                "description": "What the endpoint supports is found by check_agent and kept under capabilities.",
            },
        ),
        (
            "Scaffold",
            {
                "fields": ["scaffold", "rap_depth", "rap_iterations"],
                "description": "RAP needs an endpoint that returns logprobs; depth and iterations apply to RAP only.",
            },
        ),
        (
            "Dialogue games",
            {
                "fields": ["dialogue_steering", "dialogue_policy"],
                "description": "A steered agent plays dialogue games only and records the instruction it chose with "
                "each message. Solver-guided needs a deployed policy: python manage.py deploy_dialogue_policy "
                "--run ID --agent NAME (or --policy-file).",
            },
        ),
        ("History", {"fields": ["created_at", "updated_at"], "classes": ["collapse"]}),
    ]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "base_url":
            # A URL typed without a scheme is taken as https: a key should not travel in the clear by accident.
            kwargs["assume_scheme"] = "https"
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description="base URL", ordering="base_url")
    def endpoint(self, obj: AgentConfig) -> str:
        # Late import: the LLM package loads the openai client. A URL can embed user:password or a key in its
        # query; the list (often on screens and in screenshots) shows it without them.
        from agents_app.agents.llm.settings import redact_url

        return redact_url(obj.base_url)

    @admin.display(description="API key")
    def key_status(self, obj: AgentConfig) -> str:
        # Only whether the variable is set in this (web) process; its value is never read into a page.
        if obj is None or not obj.api_key_env:
            return "no key is sent"
        present = "set" if os.environ.get(obj.api_key_env) else "not set"
        return f"${obj.api_key_env} is {present} in the web process (workers need it too)"

    def get_deleted_objects(self, objs, request):
        # Listing played configurations as "protected" makes the admin show its usual refusal page
        # (single delete and the bulk action alike) instead of deleting or failing with a 500. A match that
        # starts between that page and the POST is still caught by the pre_delete receiver.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        protected = list(protected) + [PLAYED.format(obj.name) for obj in objs if obj.has_matches()]
        return deleted, counts, perms_needed, protected


@admin.register(AgentCall)
class AgentCallAdmin(admin.ModelAdmin):
    """The transcript is evidence of what happened: it can be read, never edited or removed here."""

    list_display = ["id", "match_link", "version", "seat", "agent_name", "seq", "purpose", "fallback", "latency_ms"]
    list_filter = ["agent_name", "fallback", "purpose"]
    search_fields = ["=match__id"]
    search_help_text = "Match id"
    list_select_related = ["match"]
    ordering = ["-match_id", "version", "seq"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="match", ordering="match_id")
    def match_link(self, obj: AgentCall) -> str:
        return format_html('<a href="{}">#{}</a>', reverse("match_detail", args=[obj.match_id]), obj.match_id)


class _ReadOnly(admin.ModelAdmin):
    """Records of what a solver did: read here, never edited (a changed cached reply would change every rerun)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(SolverRun)
class SolverRunAdmin(_ReadOnly):
    list_display = ["id", "game_id", "solver", "instruction_set", "depth", "llm_seeds", "agent", "status",
                    "model_calls", "cache_hits", "elapsed_s", "created_at"]
    list_filter = ["game_id", "solver", "status"]
    list_select_related = ["agent"]


@admin.register(DialogueGeneration)
class DialogueGenerationAdmin(_ReadOnly):
    list_display = ["id", "model", "key", "created_at"]
    list_filter = ["model"]
    search_fields = ["=key"]


@admin.register(EvalCall)
class EvalCallAdmin(_ReadOnly):
    """The calls of seed 002's probes (spy_probes) and DEEP (deep_eval)."""

    list_display = ["id", "task", "run", "agent_name", "match_id", "seat", "purpose", "error", "created_at"]
    list_filter = ["task", "purpose", "agent_name"]
    search_fields = ["=run", "agent_name"]
