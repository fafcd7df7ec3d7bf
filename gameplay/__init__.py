"""Game play: engines, matches, realtime play. Also holds the project settings, ASGI app and Celery app."""

from .celery import app as celery_app

__all__ = ("celery_app",)
