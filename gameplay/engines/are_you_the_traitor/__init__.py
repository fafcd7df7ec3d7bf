"""Are You the Traitor? (Looney Labs, 2009): a hidden-role party game of talk, one Stop call and treasure."""

from .game import TraitorGame, TraitorState

__all__ = ["TraitorGame", "TraitorState"]
