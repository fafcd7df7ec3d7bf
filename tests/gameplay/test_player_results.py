"""The one rule for a player's result when a player holds several seats (gameplay/reads/player_results.py). Pure."""

from __future__ import annotations

import pytest

from gameplay.reads.player_results import DRAW, LOSS, WIN, compare, outcome, player_results, seat_results, winner


def test_a_player_counts_the_mean_of_its_seats():
    assert player_results(["a", "b", "a"], [1 / 3, 1 / 3, 1 / 3]) == pytest.approx({"a": 1 / 3, "b": 1 / 3})
    assert player_results(["a", "b", "a"], [1.0, 0.0, 0.0]) == {"a": 0.5, "b": 0.0}
    assert player_results(["a", "b", "a"], [0.3, 0.4, 0.3]) == pytest.approx({"a": 0.3, "b": 0.4})
    assert player_results(["a", "b"], [0.25, 0.75]) == {"a": 0.25, "b": 0.75}
    assert list(player_results(["b", "a", "b"], [0.2, 0.5, 0.3])) == ["b", "a"]  # in order of first seat


def test_draws_survive_rounding():
    results = player_results(["a", "b", "a", "b", "a"], [0.2] * 5)
    assert results["a"] != results["b"]  # 0.6000000000000001 / 3 against 0.4 / 2
    assert outcome(results, "a") == outcome(results, "b") == DRAW and winner(results) is None


def test_win_draw_loss_and_the_winner():
    results = {"a": 0.5, "b": 0.25, "c": 0.25}
    assert (outcome(results, "a"), outcome(results, "b"), winner(results)) == (WIN, LOSS, "a")
    assert (compare(0.3, 0.4), compare(0.4, 0.3), compare(0.3, 0.3 + 1e-12)) == (LOSS, WIN, DRAW)
    assert winner({"a": 0.5, "b": 0.5, "c": 0.0}) is None
    assert outcome({"a": 1.0}, "a") == DRAW  # nobody else to beat


def test_in_teams_a_seat_counts_its_teams_summed_score():
    # Who is Spy: three civilians won 1/3 each, the spy (seat 1) lost.
    assert seat_results([1 / 3, 0.0, 1 / 3, 1 / 3], [0, 1, 0, 0]) == pytest.approx([1.0, 0.0, 1.0, 1.0])
    assert player_results(["a", "b", "a", "b"], [1 / 3, 0.0, 1 / 3, 1 / 3], [0, 1, 0, 0]) == pytest.approx(
        {"a": 1.0, "b": 0.5})
    # No teams kept (None, or not one per seat): seat scores.
    assert seat_results([0.5, 0.5], None) == seat_results([0.5, 0.5], [0]) == [0.5, 0.5]


def test_a_score_per_seat_is_required():
    with pytest.raises(ValueError, match="2 players for 3 scores"):
        player_results(["a", "b"], [0.2, 0.3, 0.5])
