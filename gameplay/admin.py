from django.contrib import admin

from gameplay.models import Event, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    exclude = ("token",)  # credentials stay out of the admin pages
    readonly_fields = ("index", "team", "controller", "agent_name", "joined_at")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game_id", "status", "version", "winner", "created_at", "finished_at")
    list_filter = ("game_id", "status")
    readonly_fields = ("state", "version", "scores", "winner", "seed", "finished_at")
    inlines = [SeatInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "kind", "seat", "version", "think_time_ms", "created_at")
    list_filter = ("kind",)

    def has_change_permission(self, request, obj=None):
        return False  # the log is append-only


