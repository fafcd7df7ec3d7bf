"""Hive: the base game plus the Mosquito, Ladybug and Pillbug expansions, with UHP notation."""

from .game import HiveGame, HiveState, game_string, normalise_move
from .gamestring import load_game_string
from .perft import perft

__all__ = ["HiveGame", "HiveState", "game_string", "load_game_string", "normalise_move", "perft"]
