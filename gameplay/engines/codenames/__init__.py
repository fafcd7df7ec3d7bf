"""Codenames (Czech Games Edition, 2015): two teams of Spymasters and Operatives race to find their agents."""

from .game import CodenamesGame, CodenamesState

__all__ = ["CodenamesGame", "CodenamesState"]
