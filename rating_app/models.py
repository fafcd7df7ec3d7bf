"""Stored rating runs: what was rated, how, and the library's full report.

A run is a cache entry as much as a record: the leaderboard reuses the newest run whose
``cache_key`` (source, filters, configuration, library version) and ``match_fingerprint``
(the exact set of rated matches) both match, and computes a new one otherwise.
"""

from django.db import models


class RatingRun(models.Model):
    class Source(models.TextChoices):
        PLATFORM = "platform", "Platform matches"
        GAMEBENCH = "gamebench", "GameBench published data"

    source = models.CharField(max_length=16, choices=Source.choices)
    filters = models.JSONField(default=dict, blank=True, help_text="games, agents, since, until (platform only).")
    bootstrap = models.PositiveIntegerField(help_text="Bootstrap resamples B.")
    seed = models.BigIntegerField()
    ties = models.CharField(max_length=8)
    alpha = models.FloatField(help_text="ILSR regularisation.")
    interval = models.FloatField(default=0.9, help_text="Width of the reported intervals.")
    library_version = models.CharField(max_length=32)
    cache_key = models.CharField(
        max_length=64, db_index=True, help_text="sha256 of source, filters, configuration and library version."
    )
    match_fingerprint = models.CharField(max_length=64, help_text="sha256 of the rated matches (or the data file).")
    n_matches = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True, help_text="RatingReport.to_json(); empty if nothing was rated.")
    error = models.TextField(blank=True, help_text="Why nothing could be rated (e.g. no finished matches).")
    model_decisions = models.JSONField(
        default=list, blank=True,
        help_text="Per model-calling agent of the rated matches: decisions, fallbacks, copied and first-listed moves.",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_source_display()} run #{self.pk} ({self.n_matches} matches, B={self.bootstrap})"

    @property
    def ok(self) -> bool:
        return self.result is not None


class RefreshRequest(models.Model):
    """Someone asked for a selection's run to be computed (the leaderboard's POST button, a queued task).

    Pages only read: they show the latest stored run and, while a request is open, that one is being computed.
    The task that computes it closes the request (``finished_at``), noting why when nothing could be stored.
    """

    source = models.CharField(max_length=16, choices=RatingRun.Source.choices)
    filters = models.JSONField(default=dict, blank=True)
    cache_key = models.CharField(max_length=64, db_index=True, help_text="The RatingRun.cache_key it asks for.")
    requested_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why the computation stored no run (e.g. unreadable input).")

    class Meta:
        ordering = ["-requested_at", "-pk"]

    def __str__(self) -> str:
        state = "open" if self.finished_at is None else "done"
        return f"refresh of {self.get_source_display()} #{self.pk} ({state})"
