"""Who is Spy (SpyGame, seed 002): describe a secret word without saying it and vote out the odd ones out."""

from .game import SpyGame, SpyState

__all__ = ["SpyGame", "SpyState"]
