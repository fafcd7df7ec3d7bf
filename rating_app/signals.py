"""Signals of the leaderboard."""

from django.dispatch import Signal

# Someone asked for a leaderboard to be computed (services.request_refresh), sent once the request is committed;
# rating_app.receivers queues the computation. Arguments: request_id.
refresh_requested = Signal()
