from django.apps import AppConfig


class RatingAppConfig(AppConfig):
    name = "rating_app"
    verbose_name = "Ratings"

    def ready(self):
        from gameplay.signals import match_finished
        from rating_app.receivers import queue_leaderboard_refresh, queue_requested_refresh
        from rating_app.signals import refresh_requested

        match_finished.connect(queue_leaderboard_refresh, dispatch_uid="rating_app.queue_leaderboard_refresh")
        refresh_requested.connect(queue_requested_refresh, dispatch_uid="rating_app.queue_requested_refresh")
