from channels.generic.websocket import WebsocketConsumer
from django.urls import re_path

from gameplay.web.consumers import MatchConsumer


class NoSuchSocket(WebsocketConsumer):
    """Any other websocket path: the handshake is refused (403) like a bad token, instead of the router raising "No
    route found" and the server answering 500 with a traceback in its log (issue 37, point 6)."""

    def connect(self):
        self.close()


# The token segment may be empty so a missing token reaches the consumer and is refused cleanly.
websocket_urlpatterns = [
    re_path(r"^ws/play/(?P<token>[^/]*)/$", MatchConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
