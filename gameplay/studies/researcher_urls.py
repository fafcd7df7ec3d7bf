"""Researcher pages under /studies/ (the participant journey lives under /s/)."""

from django.urls import path

from gameplay.studies import exports
from gameplay.studies import researcher_views as views

app_name = "study_research"

urlpatterns = [
    path("", views.study_list, name="list"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
    path("<slug:slug>/live/", views.live, name="live"),
    path("<slug:slug>/rounds.csv", views.download, {"filename": exports.ROUNDS}, name="rounds_csv"),
    path("<slug:slug>/messages.csv", views.download, {"filename": exports.MESSAGES}, name="messages_csv"),
    path("<slug:slug>/survey.csv", views.download, {"filename": exports.SURVEY}, name="survey_csv"),
    path("<slug:slug>/participants.csv", views.download, {"filename": exports.PARTICIPANTS}, name="participants_csv"),
    path("<slug:slug>/comprehension.csv", views.download, {"filename": exports.COMPREHENSION},
         name="comprehension_csv"),
    path("<slug:slug>/payments.csv", views.download, {"filename": exports.PAYMENTS}, name="payments_csv"),
    path("<slug:slug>/analysis.zip", views.download, {"filename": exports.ZIP}, name="analysis_zip"),
]
