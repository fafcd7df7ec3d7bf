"""The Celery app. Eager (in-process) unless REDIS_URL names a broker; see settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gameplay.project.settings")

app = Celery("strategic_play")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
