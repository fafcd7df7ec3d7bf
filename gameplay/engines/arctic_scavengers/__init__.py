"""Arctic Scavengers (base game): a deck-building survival game for 2-5 tribes with hidden hands, a face-down
junkyard, contested resources and simultaneous skirmish reveals."""

from .game import ArcticGame, ArcticState

__all__ = ["ArcticGame", "ArcticState"]
