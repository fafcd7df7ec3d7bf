"""The endings tables cover every registered game, each with at least two ways to end (every game has a winning rule
and a cap, a tie or a second winning rule), under ids that say game and way."""

from __future__ import annotations

from collections import Counter

from gameplay.engines.registry import GAMES

from . import board_games_support, card_games_support, dialogue_games_support, hidden_role_games_support
from .timeout_endings_support import TIMEOUT_ENDINGS

ENDINGS = (board_games_support.ENDINGS + card_games_support.ENDINGS + dialogue_games_support.ENDINGS
           + hidden_role_games_support.ENDINGS)


def test_every_registered_game_ends_in_at_least_two_ways():
    ways = Counter(e.game for e in ENDINGS)
    assert set(ways) == set(GAMES)
    assert all(count >= 2 for count in ways.values()), ways


def test_each_way_has_its_own_id_named_after_its_game():
    ids = [e.id for e in ENDINGS + TIMEOUT_ENDINGS]
    assert len(ids) == len(set(ids))
    assert all(e.id.startswith(f"{e.game}-") for e in ENDINGS)
