"""Fruit Trading (seed 004, after OpenSpiel's chat game): two seats swap fruit by message and structured offers."""

from .game import FruitTradingGame, FruitTradingState

__all__ = ["FruitTradingGame", "FruitTradingState"]
