"""Participant pages, mounted at /s/ (researcher pages live elsewhere)."""

from django.urls import path

from gameplay.studies import questionnaire_views, views, waiting_views

app_name = "study"

participant = "<slug:slug>/p/<str:token>/"

urlpatterns = [
    path("<slug:slug>/", views.entry, name="entry"),
    path("<slug:slug>/consent/", views.consent, name="consent"),
    path("<slug:slug>/declined/", views.declined, name="declined"),
    path(participant, views.resume, name="resume"),
    path(participant + "instructions/", views.instructions, name="instructions"),
    path(participant + "comprehension/", questionnaire_views.comprehension, name="comprehension"),
    path(participant + "round/<int:n>/", views.round_page, name="round"),
    path(participant + "round/<int:n>/start/", views.round_start, name="round_start"),
    path(participant + "round/<int:n>/status/", views.round_status, name="round_status"),
    path(participant + "round/<int:n>/continue/", views.round_continue, name="round_continue"),
    path(participant + "wait/<int:n>/", waiting_views.wait, name="wait"),
    path(participant + "wait/<int:n>/status/", waiting_views.wait_status, name="wait_status"),
    path(participant + "heartbeat/", views.heartbeat, name="heartbeat"),
    path(participant + "survey/", questionnaire_views.survey, name="survey"),
    path(participant + "complete/", views.complete, name="complete"),
    path(participant + "ended/", views.ended, name="ended"),
    path(participant + "screened/", questionnaire_views.screened, name="screened"),
]
