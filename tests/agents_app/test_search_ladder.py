"""The search ladder (``manage.py search_ladder``): a round robin of random play and the levels, rated with the
platform's ratings; in games of more than two seats every match still sets the pair's players against each other."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from agents_app.evaluations.search_bench import ladder_jobs


def test_two_seat_pairs_alternate_seats_and_meet_per_pair_times():
    jobs = ladder_jobs("santorini", [1, 2], per_pair=4, seed=10)
    assert len(jobs) == 3 * 4  # random, search-1, search-2: three pairs
    first_pair = [names for _, names, _ in jobs[:4]]
    assert first_pair == [("random", "search-1"), ("search-1", "random")] * 2
    assert [seed for _, _, seed in jobs] == list(range(10, 22))


def test_more_seats_share_the_table_between_the_pair():
    jobs = ladder_jobs("pit", [1], per_pair=2, seed=0, seats=3)
    assert [names for _, names, _ in jobs] == [("random", "search-1", "random"), ("search-1", "random", "search-1")]


def test_ladder_rates_a_multi_seat_game():
    out = io.StringIO()
    call_command("search_ladder", game="are_you_the_traitor", seats=4, levels="1", per_pair=2, bootstrap=20, stdout=out)
    text = out.getvalue()
    assert "are_you_the_traitor: 2 matches of 4 seats (2 per pair)" in text
    assert "search-1" in text and "random" in text and "strictly increasing by level:" in text
    assert "gap between adjacent players (90% interval over the same resamples):\n  search-1 - random: " in text


def test_ladder_refuses_a_seat_count_the_game_does_not_allow():
    with pytest.raises(CommandError, match="played by 2 to 2"):
        call_command("search_ladder", game="santorini", seats=3, levels="1", per_pair=1, stdout=io.StringIO())



def test_ladder_without_random_sets_the_levels_head_to_head():
    jobs = ladder_jobs("pit", [2, 3], per_pair=2, seed=0, seats=3, with_random=False)
    assert [names for _, names, _ in jobs] == [("search-2", "search-3", "search-2"),
                                               ("search-3", "search-2", "search-3")]
    out = io.StringIO()
    call_command("search_ladder", game="santorini", levels="1,2", per_pair=2, bootstrap=20, without_random=True,
                 stdout=out)
    text = out.getvalue()
    assert "santorini: 2 matches of 2 seats (2 per pair)" in text and "\nrandom" not in text
    with pytest.raises(CommandError, match="needs two players"):
        call_command("search_ladder", game="santorini", levels="1", without_random=True, stdout=io.StringIO())


def test_ladder_json_holds_the_report_and_every_match(tmp_path):
    import json

    path = tmp_path / "ladder.json"
    call_command("search_ladder", game="santorini", levels="1", per_pair=2, bootstrap=20, json=str(path),
                 stdout=io.StringIO())
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "santorini" in data["scopes"]
    assert [m["agents"] for m in data["matches"]] == [["random", "search-1"], ["search-1", "random"]]
    assert [m["seed"] for m in data["matches"]] == [0, 1]
    assert all(len(m["scores"]) == 2 and abs(sum(m["scores"]) - 1) < 1e-9 for m in data["matches"])


def test_a_table_of_three_seats_three_different_players_each_first_in_turn():
    jobs = ladder_jobs("pit", [1, 2], per_pair=3, seed=0, seats=3, table=3)
    # random, search-1, search-2: one group of three, each player first once, in turn
    assert [names for _, names, _ in jobs] == [("random", "search-1", "search-2"),
                                               ("search-1", "search-2", "random"),
                                               ("search-2", "random", "search-1")]
    four = ladder_jobs("are_you_the_traitor", [1, 2, 3], per_pair=4, seed=0, seats=4, table=3)
    assert len(four) == 4 * 4  # four groups of three among four players
    assert all(len(set(names)) == 3 and names[3] == names[0] for _, names, _ in four)  # A, B, C, A
    with pytest.raises(ValueError, match="2 to 3"):
        ladder_jobs("pit", [1, 2, 3], per_pair=1, seed=0, seats=3, table=4)
    with pytest.raises(CommandError, match="--table"):
        call_command("search_ladder", game="santorini", levels="1,2", table=3, stdout=io.StringIO())


def test_saved_runs_are_rated_together_and_a_run_rates_as_it_printed(tmp_path):
    first = tmp_path / "a.json"
    played = io.StringIO()
    call_command("search_ladder", game="santorini", levels="1", per_pair=2, bootstrap=50, json=str(first),
                 stdout=played)
    second = tmp_path / "b.json.gz"  # gzipped, as a kept measurement is
    call_command("search_ladder", game="santorini", levels="1", per_pair=2, bootstrap=50, seed=100, json=str(second),
                 stdout=io.StringIO())
    assert second.read_bytes()[:2] == b"\x1f\x8b"
    again = io.StringIO()
    call_command("search_ladder", game="santorini", rate=[str(first)], bootstrap=50, stdout=again)
    # the same matches and bootstrap seed: the same table, line for line, under a different first line
    assert again.getvalue().splitlines()[1:] == played.getvalue().splitlines()[1:]
    both = io.StringIO()
    call_command("search_ladder", game="santorini", rate=[str(first), str(second)], bootstrap=50, stdout=both)
    assert "santorini: 4 saved matches from 2 file(s)" in both.getvalue()
    assert [line.split()[-1] for line in both.getvalue().splitlines()[2:4]] == ["4", "4"]  # matches per player
    with pytest.raises(CommandError, match="share match seeds"):
        call_command("search_ladder", game="santorini", rate=[str(first), str(first)], stdout=io.StringIO())
    with pytest.raises(CommandError, match="no saved matches of pit"):
        call_command("search_ladder", game="pit", rate=[str(first)], stdout=io.StringIO())


def _saved_run(path, upsets: int, matches: int = 40) -> None:
    """A saved run of Santorini in which search-1 beats search-2 ``upsets`` times in ``matches``."""
    import json

    saved = [{"agents": ["search-1", "search-2"] if m % 2 else ["search-2", "search-1"],
              "scores": ([1.0, 0.0] if m % 2 else [0.0, 1.0]) if m < upsets else ([0.0, 1.0] if m % 2 else [1.0, 0.0]),
              "teams": None, "seed": m} for m in range(matches)]
    path.write_text(json.dumps({"scopes": {"santorini": {}}, "matches": saved}), encoding="utf-8")


def test_a_pair_the_lower_player_nearly_never_beats_is_named_with_the_way_to_narrow_it(tmp_path):
    one_sided, balanced = tmp_path / "one.json", tmp_path / "five.json"
    _saved_run(one_sided, upsets=1)
    _saved_run(balanced, upsets=5)
    out = io.StringIO()
    call_command("search_ladder", game="santorini", rate=[str(one_sided)], bootstrap=200, stdout=out)
    assert "search-1 beat search-2 in 1 of 40 matches: the resamples that draw none of them" in out.getvalue()
    out = io.StringIO()
    call_command("search_ladder", game="santorini", rate=[str(balanced)], bootstrap=200, stdout=out)
    assert "search-2 - search-1:" in out.getvalue() and " beat " not in out.getvalue()
