"""ASGI entry point: HTTP through Django, websockets through Channels (origin-checked)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gameplay.project.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)

from gameplay.project.routing import websocket_urlpatterns  # noqa: E402
from gameplay.project.security import WebsocketOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Scheme, host and port of the Origin are checked, not only its host (gameplay/project/security.py).
        "websocket": WebsocketOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)
