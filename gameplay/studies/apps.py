from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "gameplay.studies"
    label = "studies"
    verbose_name = "Studies"

    def ready(self):
        from gameplay.studies.selectors import plays_in_match
        from gameplay.web.access import register_viewer_check

        register_viewer_check(plays_in_match)  # a private study round is open to its own participants
