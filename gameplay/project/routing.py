from django.urls import re_path

from gameplay.web.consumers import MatchConsumer

# The token segment may be empty so a missing token reaches the consumer and is refused cleanly.
websocket_urlpatterns = [
    re_path(r"^ws/play/(?P<token>[^/]*)/$", MatchConsumer.as_asgi()),
]
