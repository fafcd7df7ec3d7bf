"""Meeting Scheduling (seed 004's dialogue domain): two people agree by message on a weekday to meet."""

from .game import MeetingGame, MeetingState

__all__ = ["MeetingGame", "MeetingState"]
