"""Santorini: the base two-player game, plus the GameBench variant as options."""

from .game import SantoriniGame, SantoriniState

__all__ = ["SantoriniGame", "SantoriniState"]
