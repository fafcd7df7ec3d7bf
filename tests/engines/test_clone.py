"""State.clone() is exactly the JSON round trip, made without JSON text (searches clone at every step): json_copy
equals json.loads(json.dumps(x)) with the same types, and every game's clones equal its round trips."""

from __future__ import annotations

import enum
import json
import math
import random
import types

import pytest

from gameplay.bench.search_speed import random_step
from gameplay.engines import api
from gameplay.engines.jsoncopy import json_copy
from gameplay.engines.registry import GAMES, create_game
from gameplay.engines.santorini import SantoriniGame, SantoriniState

# Short games, so every registered game plays a whole random playout quickly.
SHORT = {"atari_boxing": {"max_frames": 60, "frames_per_decision": 15}, "hive": {"max_turns": 60},
         "gnomes": {"turn_cap": 40}, "pit": {"max_hands": 1, "tick_cap": 6}, "sea_battle": {"turn_cap": 6},
         "arctic_scavengers": {"contested_count": 2}}


def strict(value) -> str:
    """JSON text keeps what == hides: 1 against 1.0 or True, and the order of keys."""
    return json.dumps(value)


def round_trip(value):
    return json.loads(json.dumps(value))


class Colour(enum.IntEnum):
    RED = 1


@pytest.mark.parametrize("value", [
    {"a": [1, 2.5, -0.0, True, None, "x"], "b": {"c": (1, (2, 3))}, "d": [], "e": {}},
    [(1, 2), {"k": ({"z": 1},)}],
    "text", 3, 1e300, None,
    {1: "an int key", "1": "its text"},  # JSON turns the key into text: the later one wins
    {None: 1, True: 2, 2.5: 3},
    {"colour": Colour.RED, "keys": {Colour.RED: "x"}},  # an enum is written as its value
])
def test_json_copy_is_the_json_round_trip_with_the_same_types(value):
    assert strict(json_copy(value)) == strict(round_trip(value))
    assert json_copy(value) == round_trip(value)


def test_json_copy_copies_and_keeps_nan():
    inner = [1, 2]
    value = {"list": inner, "nan": math.nan}
    copied = json_copy(value)
    assert copied["list"] == inner and copied["list"] is not inner
    assert math.isnan(copied["nan"])


def test_json_copy_refuses_what_json_refuses():
    cycle: list = []
    cycle.append(cycle)
    with pytest.raises(ValueError):
        json_copy(cycle)
    with pytest.raises(TypeError):
        json_copy({"a": {1, 2}})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_clone_is_the_json_round_trip_and_independent(game_id, monkeypatch):
    game = create_game(game_id, SHORT.get(game_id, {}))
    state = game.new_initial_state(7)
    rng = random.Random(7)
    step = 0
    while not state.is_terminal():
        if step % 3 == 0:
            expected = strict(game.state_from_json(round_trip(state.to_json())).to_json())
            before = strict(state.to_json())
            with monkeypatch.context() as patch:  # the clone writes no JSON text
                patch.setattr(api, "json", types.SimpleNamespace())
                clone = state.clone()
            assert strict(clone.to_json()) == expected
            if not clone.is_terminal():
                random_step(clone, random.Random(step))  # playing on the clone leaves the original as it was
            assert strict(state.to_json()) == before
        random_step(state, rng)
        step += 1


class ItsOwnJson(SantoriniState):
    """A state class that reads its own JSON: it is cloned through that JSON."""

    @classmethod
    def from_json(cls, game, data):
        state = super().from_json(game, data)
        state.read_from_json = True
        return state


def test_a_state_class_reading_its_own_json_is_cloned_through_it():
    state = ItsOwnJson(SantoriniGame(), 1)
    assert state.clone().read_from_json
