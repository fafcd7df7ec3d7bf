"""Signals other apps may listen to (gameplay itself imports nothing from them)."""

from django.dispatch import Signal

# Sent once per match, after the transaction that finished it has committed.
# sender: gameplay.models.Match; keyword arguments: match_id, game_id.
match_finished = Signal()
