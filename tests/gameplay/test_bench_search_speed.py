"""The search-speed benchmark (gameplay/bench/search_speed.py and its command) measures seeded random playouts that
clone before every action, from the initial state and from mid-game."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from gameplay.bench.search_speed import measure


def test_measure_counts_a_clone_per_action_and_the_root_clone_per_playout():
    speed = measure("santorini", options={"max_turns": 6}, n_playouts=3, seed=1)
    assert speed.options["max_turns"] == 6
    for run in (speed.from_start, speed.from_mid):
        assert run.playouts == 3
        assert run.clones == run.actions + run.playouts
        assert run.clones_per_s > 0 and run.actions_per_s > 0 and run.playouts_per_s > 0
    assert speed.mid_ply > 0
    assert speed.clone_us_start > 0 and speed.clone_us_mid > 0
    # The same seed plays the same moves.
    again = measure("santorini", options={"max_turns": 6}, n_playouts=3, seed=1)
    assert (again.mid_ply, again.from_start.actions, again.from_mid.actions) == (
        speed.mid_ply, speed.from_start.actions, speed.from_mid.actions)


def test_command_prints_a_row_per_game_and_starting_point():
    out = io.StringIO()
    call_command("bench_search_speed", game=["santorini", "debate"], playouts=1, seconds=0.5, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split()[:4] == ["game", "from", "ply", "clone"]
    assert [line.split()[:2] for line in lines[1:]] == [
        ["santorini", "start"], ["santorini", "mid"], ["debate", "start"], ["debate", "mid"]]


def test_command_refuses_an_unknown_game():
    with pytest.raises(CommandError, match="unknown game"):
        call_command("bench_search_speed", game=["chess"], stdout=io.StringIO())
