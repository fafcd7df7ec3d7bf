from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "gameplay.studies"
    label = "studies"
    verbose_name = "Studies"

    def ready(self):
        from gameplay.access import register_viewer_check
        from gameplay.studies.selectors import plays_in_match

        register_viewer_check(plays_in_match)  # a private study round is open to its own participants
