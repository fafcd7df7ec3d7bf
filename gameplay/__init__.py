"""Game play: engines, matches, realtime play; the project wiring (settings, ASGI app, Celery app) in gameplay.project.

The Celery app is loaded by ``GameplayConfig.ready()`` (so ``shared_task`` binds to it whenever Django
starts), not imported here: ``gameplay.engines`` must stay importable without Django, Channels or Celery.
"""


def __getattr__(name):
    if name in ("celery_app", "celery"):  # "celery": how `celery -A gameplay worker` finds the app
        from .project.celery import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
