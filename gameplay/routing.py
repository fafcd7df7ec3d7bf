from django.urls import path

from gameplay.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/play/<str:token>/", MatchConsumer.as_asgi()),
]
