"""Hive move generation against the published perft counts (shared/reference/hive/README.md)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from gameplay.engines.hive import HiveGame, load_game_string, perft

# The reference table (Mzinga's perft; identical bugs in hand count once, a pass is a move).
TABLE = {
    "": [4, 96, 1440, 21600],
    "M": [5, 150, 2610, 45414],
    "L": [5, 150, 2610, 45414],
    "P": [5, 150, 2610, 45414],
    "MLP": [7, 294, 6678, 151686],
}
# Depth 5 is where movement first counts (White's third turn can move its queen); these rows of the
# same published table are not in the README, so they are a bonus check of the movement rules.
DEPTH5 = {"": 516240, "M": 1252800, "L": 1252800, "P": 1255932, "MLP": 5427108}


def start(expansions: str):
    return HiveGame({
        "mosquito": "M" in expansions, "ladybug": "L" in expansions, "pillbug": "P" in expansions,
    }).new_initial_state(0)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_base_perft_matches_reference(depth):
    assert perft(start(""), depth) == TABLE[""][depth - 1]


@pytest.mark.parametrize("expansions", ["M", "L", "P", "MLP"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_expansion_perft_matches_reference(expansions, depth):
    assert perft(start(expansions), depth) == TABLE[expansions][depth - 1]


@pytest.mark.parametrize("expansions", ["M", "L", "P", "MLP"])
def test_expansion_perft_depth_4(expansions):
    assert perft(start(expansions), 4) == TABLE[expansions][3]


@pytest.mark.parametrize("expansions", ["", "M", "L", "P"])
def test_depth_5_with_movement(expansions):
    assert perft(start(expansions), 5) == DEPTH5[expansions]


def test_perft_leaves_the_state_untouched_and_counts_from_a_position():
    state = load_game_string("Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1")
    before = state.to_json()
    # Black's second placement: 5 bugs (the queen is allowed now) x 3 cells touching only black.
    assert perft(state, 1) == 15
    assert perft(state, 0) == 1
    assert state.to_json() == before


def _command(*args) -> list[str]:
    out = io.StringIO()
    call_command("hive_perft", *args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_command_prints_progress_time_and_count_last():
    lines = _command("--depth", "3")
    assert lines[-1] == "1440"
    assert lines[-2].startswith("elapsed: ")
    assert any(line.strip().startswith("wS1: ") for line in lines)


def test_command_expansions_and_position():
    assert _command("--depth", "2", "--expansions", "MLP")[-1] == "294"
    lines = _command("--depth", "1", "--position", "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1")
    assert lines[-1] == "15"


def test_command_rejects_bad_input():
    with pytest.raises(CommandError):
        _command("--depth", "1", "--expansions", "X")
    with pytest.raises(CommandError):
        _command("--depth", "1", "--position", "Base;InProgress;White[1];wQ")
    with pytest.raises(CommandError):
        _command("--depth", "1", "--expansions", "M", "--position", "Base;NotStarted;White[1]")
