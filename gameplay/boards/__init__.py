"""The web side of each game: one board presenter per game (template, assets, context, page geometry), read from a
seat's ``SeatView`` only. ``presenter_for(game_id)`` gives a game's presenter, the generic one for a game without
its own. Pages never parse an engine's sentences: a presenter arranges the facts a view carries."""

from gameplay.boards.base import GENERIC_TEMPLATE, BoardPresenter
from gameplay.boards.registry import presenter_for

__all__ = ["GENERIC_TEMPLATE", "BoardPresenter", "presenter_for"]
