"""Transcript routes, mounted under /matches/ next to the match pages they belong to (see gameplay/project/urls.py)."""

from django.urls import path

from agents_app.transcripts import views as views

app_name = "transcripts"

urlpatterns = [
    path("<int:match_id>/transcripts.jsonl", views.match_jsonl, name="jsonl"),
    path("<int:match_id>/events/<int:seq>/transcript/", views.event_panel, name="event"),
]
