"""The kept Two Rooms ladder (fixtures/measurements/): thousands of matches played once and rated again by
``search_ladder --rate``. They stand for the code only while it plays them the same way, so a sample of them is
replayed here: a change to the Two Rooms engine or to the search that alters their moves fails this test, and the
kept runs must then be played again (fixtures/README.md says how)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

import pytest

from agents_app.evaluations.arena import play

KEPT = Path(__file__).resolve().parents[2] / "fixtures" / "measurements" / "two_rooms_and_a_boom_ladder.json.gz"
GAME = "two_rooms_and_a_boom"


@cache
def kept_matches() -> list[dict]:
    with gzip.open(KEPT, "rt", encoding="utf-8") as handle:
        return json.load(handle)["matches"]


def sample(players: set[str], count: int) -> list[dict]:
    """The first ``count`` kept matches played by exactly ``players``, spread over the file (every 37th)."""
    return [m for m in kept_matches() if set(m["agents"]) == players][::37][:count]


# Level 3 is left out: its time limit (0.6 s a move) could cut a search short on a loaded test machine, and a cut
# search plays another move. Levels 1 and 2 finish far inside theirs, and they run the same code.
@pytest.mark.parametrize("players,count", [({"random", "search-1"}, 8), ({"search-1", "search-2"}, 2)])
def test_kept_matches_replay_as_they_were_played(players, count):
    matches = sample(players, count)
    assert len(matches) == count
    for kept in matches:
        result = play(GAME, kept["agents"], kept["seed"])
        assert (result.scores, result.teams) == (kept["scores"], kept["teams"]), f"seed {kept['seed']}"


def test_the_kept_runs_hold_every_player_and_each_match_once():
    players = {name for m in kept_matches() for name in m["agents"]}
    assert players == {"random", "search-1", "search-2", "search-3"}
    seeds = [m["seed"] for m in kept_matches()]
    assert len(seeds) == len(set(seeds))  # a match kept twice would narrow the intervals with no new evidence
