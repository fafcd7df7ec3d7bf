from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = "Game play"

    def ready(self):
        from . import celery  # noqa: F401  (creates the Celery app so shared_task binds to it)
