from django.apps import AppConfig


class RatingAppConfig(AppConfig):
    name = "rating_app"
    verbose_name = "Ratings"
