"""Shared helper of the Fruit Trading engine tests: a new game (the fixed scenario unless options say otherwise)."""

from __future__ import annotations

from gameplay.engines.fruit_trading import FruitTradingGame


def new_state(seed: int = 1, **options):
    return FruitTradingGame(options).new_initial_state(seed)
