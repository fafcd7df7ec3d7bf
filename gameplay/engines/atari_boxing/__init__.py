"""Atari Boxing (Activision, 1980) for two seats over the Arcade Learning Environment's emulator."""

from .game import BoxingGame, BoxingState

__all__ = ["BoxingGame", "BoxingState"]
