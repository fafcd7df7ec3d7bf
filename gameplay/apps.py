from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = "Game play"

    def ready(self):
        from .project import celery  # noqa: F401  (creates the Celery app so shared_task binds to it)


class DaphneConfig(AppConfig):
    """daphne's app (its runserver command), without daphne.apps: that module imports daphne.server, and with it
    twisted, so that the reactor is installed early for packages that import twisted's reactor themselves; none
    here does, and daphne's runserver imports the server when it runs. daphne's one check (listed before
    staticfiles) holds by the order of INSTALLED_APPS in gameplay/project/settings.py."""

    name = "daphne"
    verbose_name = "Daphne"
