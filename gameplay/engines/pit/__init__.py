"""Pit (Parker Brothers, 1904): a commodity-trading race played in simultaneous market ticks."""

from .game import PitGame, PitState

__all__ = ["PitGame", "PitState"]
