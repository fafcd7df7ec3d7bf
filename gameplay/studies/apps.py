from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "gameplay.studies"
    label = "studies"
    verbose_name = "Studies"
