from django.contrib import admin
from django.urls import include, path

from gameplay.web import board_image_views, lobby_views, replay_views, views

urlpatterns = [
    path("", lobby_views.lobby, name="lobby"),
    path("open-games/", lobby_views.open_games_fragment, name="open_games"),
    path("open-games/<int:match_id>/join/", lobby_views.join_open_game, name="join_open_game"),
    path("games/<slug:game_id>/new/", views.new_match, name="new_match"),
    path("games/<slug:game_id>/rules/", views.game_rules, name="game_rules"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("play/<str:token>/", views.play, name="play"),
    path("play/<str:token>/board.png", board_image_views.board_png, name="board_png"),
    path("play/<str:token>/observation.json", views.observation_json, name="observation_json"),
    path("play/<str:token>/next-round/", views.next_round, name="next_round"),
    path("play/<str:token>/rematch/", views.rematch, name="rematch"),
    path("play/<str:token>/agent-way-out/", views.agent_way_out, name="agent_way_out"),
    path("play/<str:token>/time-up/", views.turn_timeout, name="turn_timeout"),
    path("play/<str:token>/replay/", replay_views.seat_replay, name="seat_replay"),
    path("play/<str:token>/resign/", views.match_control, {"control": "resign"}, name="resign"),
    path("play/<str:token>/abort/", views.match_control, {"control": "abort"}, name="abort"),
    path("play/<str:token>/draw/", views.match_control, {"control": "draw"}, name="draw"),
    path("matches/", views.match_list, name="match_list"),
    path("matches/<int:match_id>/", views.match_detail, name="match_detail"),
    path("matches/<int:match_id>/replay/", replay_views.replay, name="replay"),
    # The model transcripts of a match (its JSONL download, a replay step's panel) are agents_app's pages.
    path("matches/", include("agents_app.transcripts.urls")),
    path("matches/<int:match_id>/board.png", board_image_views.match_board_png, name="match_board_png"),
    path("ratings/", include("rating_app.urls")),
    path("tournaments/", include("agents_app.urls")),
    path("studies/", include("gameplay.studies.researcher_urls")),
    path("s/", include("gameplay.studies.urls")),
    path("admin/", admin.site.urls),
]
