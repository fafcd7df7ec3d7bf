from django.contrib import admin

from rating_app.models import RatingRun


@admin.register(RatingRun)
class RatingRunAdmin(admin.ModelAdmin):
    """Runs are computed by the service and never edited by hand: read-only, deletable (it is a cache)."""

    list_display = ("id", "source", "n_matches", "bootstrap", "seed", "ties", "library_version", "created_at",
                    "duration_ms")
    list_filter = ("source", "library_version")
    date_hierarchy = "created_at"

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
