"""Two Rooms and a Boom (Tuesday Knight Games, 2013), basic game: hidden teams in two rooms trading hostages."""

from .game import TwoRoomsGame, TwoRoomsState

__all__ = ["TwoRoomsGame", "TwoRoomsState"]
