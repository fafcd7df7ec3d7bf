"""Game play: engines, matches, realtime play. Also holds the project settings, ASGI app and Celery app.

The Celery app is loaded by ``GameplayConfig.ready()`` (so ``shared_task`` binds to it whenever Django
starts), not imported here: ``gameplay.engines`` must stay importable without Django, Channels or Celery.
"""


def __getattr__(name):
    if name == "celery_app":
        from .celery import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
