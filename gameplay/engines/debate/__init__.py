"""Debate (seed 004, "Public Debate"): two sides argue a statement in turn, then a judge decides who argued better."""

from .game import DebateGame, DebateState

__all__ = ["DebateGame", "DebateState"]
