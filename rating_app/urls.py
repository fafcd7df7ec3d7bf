from django.urls import path

from rating_app import views

app_name = "ratings"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("scope/<slug:scope>/", views.scope, name="scope"),
    path("scope/<slug:scope>/<slug:kind>.png", views.plot, name="plot"),
    path("ratings.csv", views.download_csv, name="csv"),
    path("ratings.json", views.download_json, name="json"),
]
