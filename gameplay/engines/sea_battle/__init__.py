"""Sea Battle (GameBench's original game): two fleets of three ships, simultaneous secret orders."""

from .game import SeaBattleGame, SeaBattleState

__all__ = ["SeaBattleGame", "SeaBattleState"]
