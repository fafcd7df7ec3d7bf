"""bench_play prints its measured numbers for every registered game, at any seat count the game allows."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from gameplay.engines.registry import GAMES

pytestmark = pytest.mark.django_db(transaction=True)

# Short games keep this quick: the benchmark's lines are what is checked here, not its numbers.
SHORT = {"atari_boxing": {"max_frames": 60, "frames_per_decision": 15}, "hive": {"max_turns": 40},
         "gnomes": {"turn_cap": 30}, "pit": {"max_hands": 1, "tick_cap": 10}, "sea_battle": {"turn_cap": 10},
         "arctic_scavengers": {"contested_count": 2}}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_bench_play_prints_engine_replay_service_and_render_lines(game_id):
    out = io.StringIO()
    options = json.dumps(SHORT.get(game_id, {}))
    call_command("bench_play", game=game_id, playouts=1, matches=1, renders=2, options=options, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"{GAMES[game_id].spec.name}, {GAMES[game_id].spec.min_seats} seats")
    for prefix in ("engine   1 random playouts:", "replay   one playout of", "service  1 stored matches",
                   "render   seat view"):
        assert any(line.startswith(prefix) for line in lines), (prefix, lines)


def test_a_seat_count_the_game_does_not_allow_is_refused():
    with pytest.raises(CommandError, match="Santorini needs 2-2 seats, got 3"):
        call_command("bench_play", game="santorini", seats=3, stdout=io.StringIO())
