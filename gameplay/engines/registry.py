"""The one registry of games. Adding a game = its package + one entry here + its templates."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from .api import EngineError, Game, GameSpec

# Game id -> (module, class). A game's module loads when the game is first asked for: a process that never plays
# Boxing never loads its emulator, and a command that plays no game (manage.py help) loads no engine at all.
_HOMES: dict[str, tuple[str, str]] = {
    "santorini": (".santorini", "SantoriniGame"),
    "hive": (".hive", "HiveGame"),
    "gnomes": (".gnomes", "GnomesGame"),
    "atari_boxing": (".atari_boxing", "BoxingGame"),
    "sea_battle": (".sea_battle", "SeaBattleGame"),
    "air_land_sea": (".air_land_sea", "AirLandSeaGame"),
    "arctic_scavengers": (".arctic_scavengers", "ArcticGame"),
    "pit": (".pit", "PitGame"),
    "meeting_scheduling": (".meeting_scheduling", "MeetingGame"),
    "fruit_trading": (".fruit_trading", "FruitTradingGame"),
    "debate": (".debate", "DebateGame"),
    "codenames": (".codenames", "CodenamesGame"),
    "two_rooms_and_a_boom": (".two_rooms_and_a_boom", "TwoRoomsGame"),
    "are_you_the_traitor": (".are_you_the_traitor", "TraitorGame"),
    "who_is_spy": (".who_is_spy", "SpyGame"),
}


class _Games(MutableMapping[str, type[Game]]):
    """The registry as a mapping of game id -> Game class, loading each class on first use. Mutable only so that
    tests can register a game of their own for a while (``monkeypatch.setitem``)."""

    def __init__(self, homes: Mapping[str, tuple[str, str]]):
        self._homes: dict[str, tuple[str, str] | None] = dict(homes)
        self._loaded: dict[str, type[Game]] = {}

    def __getitem__(self, game_id: str) -> type[Game]:
        if game_id not in self._loaded:
            module, name = self._homes[game_id]  # KeyError: not a registered game
            self._loaded[game_id] = getattr(importlib.import_module(module, __package__), name)
        return self._loaded[game_id]

    def __setitem__(self, game_id: str, cls: type[Game]) -> None:
        self._homes[game_id] = None
        self._loaded[game_id] = cls

    def __delitem__(self, game_id: str) -> None:
        del self._homes[game_id]
        self._loaded.pop(game_id, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._homes)

    def __len__(self) -> int:
        return len(self._homes)


GAMES: MutableMapping[str, type[Game]] = _Games(_HOMES)


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
