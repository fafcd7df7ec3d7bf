"""The one registry of games. Adding a game = its package + one entry here + its templates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .air_land_sea import AirLandSeaGame
from .api import EngineError, Game, GameSpec
from .arctic_scavengers import ArcticGame
from .are_you_the_traitor import TraitorGame
from .atari_boxing import BoxingGame
from .codenames import CodenamesGame
from .debate import DebateGame
from .fruit_trading import FruitTradingGame
from .gnomes import GnomesGame
from .hive import HiveGame
from .meeting_scheduling import MeetingGame
from .pit import PitGame
from .santorini import SantoriniGame
from .sea_battle import SeaBattleGame
from .two_rooms_and_a_boom import TwoRoomsGame
from .who_is_spy import SpyGame

GAMES: dict[str, type[Game]] = {
    cls.spec.id: cls
    for cls in (SantoriniGame, HiveGame, GnomesGame, BoxingGame, SeaBattleGame, AirLandSeaGame, ArcticGame,
                PitGame, MeetingGame, FruitTradingGame, DebateGame, CodenamesGame,
                TwoRoomsGame, TraitorGame, SpyGame)
}


class UnknownGameError(EngineError):
    pass


def game_class(game_id: str) -> type[Game]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None


def create_game(game_id: str, options: Mapping[str, Any] | None = None, num_seats: int | None = None) -> Game:
    return game_class(game_id)(options, num_seats)


def all_specs() -> list[GameSpec]:
    return [cls.spec for cls in GAMES.values()]
