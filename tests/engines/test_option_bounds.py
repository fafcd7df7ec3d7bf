"""Number options declare their range on the OptionSpec (``bounds``, or ``choices``): the shared validation refuses a
value outside it with one clear message naming the option, for every game alike."""

from __future__ import annotations

import pytest

from gameplay.engines.api import InvalidOptionsError
from gameplay.engines.registry import GAMES, create_game

BOUNDED = [(game_id, opt) for game_id, cls in sorted(GAMES.items()) for opt in cls.spec.options if opt.bounds]


def test_every_number_option_of_a_registered_game_declares_its_range():
    unbounded = [(g, o.name) for g, cls in GAMES.items() for o in cls.spec.options
                 if o.type is int and not o.bounds and not o.choices]
    assert not unbounded, unbounded


@pytest.mark.parametrize("game_id,opt", BOUNDED, ids=[f"{g}-{o.name}" for g, o in BOUNDED])
def test_a_value_outside_the_range_is_refused_and_the_ends_are_accepted(game_id, opt):
    low, high = opt.bounds
    for bad in (low - 1, high + 1):
        with pytest.raises(InvalidOptionsError, match=f"option {opt.name} must be between {low} and {high}, got {bad}"):
            create_game(game_id, {opt.name: bad})
    for good in (low, high):
        assert create_game(game_id, {opt.name: good}).options[opt.name] == good
