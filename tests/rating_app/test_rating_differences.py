"""The interval on the gap between two agents' ratings (rating_app.ratings.differences): read from the same
resamples as the agents' own intervals, it is narrow where the matches pin the gap down, even when the agents'
intervals overlap because a one-sided pair elsewhere moves the mean that centres them."""

from __future__ import annotations

import pytest

from rating_app.ratings import MatchResult, RatingConfig, RatingInputError, rate, rating_differences


def results(game: str, first: str, second: str, first_wins: int, second_wins: int) -> list[MatchResult]:
    return ([MatchResult(game, (first, second), (1.0, 0.0))] * first_wins
            + [MatchResult(game, (first, second), (0.0, 1.0))] * second_wins)


def ladder_like_arctic() -> list[MatchResult]:
    """The shape of Arctic Scavengers' round robin: level 1 beats level 2 once in 400, level 2 beats level 3 in 28."""
    return (results("g", "a", "b", 23, 371) + results("g", "b", "c", 1, 399)
            + results("g", "c", "d", 28, 367) + results("g", "a", "c", 0, 400)
            + results("g", "a", "d", 0, 400) + results("g", "b", "d", 0, 400))


def test_a_pinned_down_gap_is_apart_where_the_agents_intervals_overlap():
    matches, config = ladder_like_arctic(), RatingConfig(bootstrap=1000, seed=3)
    by_agent = {r.agent: r for r in rate(matches, config).scopes["g"].ratings}
    assert by_agent["c"].high > by_agent["d"].low  # the two agents' own intervals overlap...
    (gap,) = rating_differences(matches, [("c", "d")], config)
    assert gap.apart and 2.0 < gap.low < gap.high < 3.2  # ...while their gap, about ln(367/28) = 2.57, is pinned down
    # the same resamples: the mean gap is the gap between the mean ratings
    assert gap.difference == pytest.approx(by_agent["d"].rating - by_agent["c"].rating)


def test_even_agents_are_not_apart_and_the_order_of_the_pair_sets_the_sign():
    matches = results("g", "x", "y", 100, 100) + results("g", "y", "x", 100, 100)
    even, backwards = rating_differences(matches, [("x", "y"), ("y", "x")], RatingConfig(bootstrap=500, seed=1))
    assert even.low < 0 < even.high and not even.apart
    assert backwards.difference == pytest.approx(-even.difference)


def test_a_pair_the_lower_agent_nearly_never_beats_is_one_sided():
    matches, config = ladder_like_arctic(), RatingConfig(bootstrap=200, seed=3)
    one_sided, pinned = rating_differences(matches, [("b", "c"), ("c", "d")], config)
    assert (one_sided.upsets, one_sided.compared, one_sided.one_sided) == (1, 400, True)  # b beat c once in 400
    assert (pinned.upsets, pinned.compared, pinned.one_sided) == (28, 395, False)


def test_one_game_and_rated_agents_only():
    with pytest.raises(RatingInputError, match="one game"):
        rating_differences(results("g", "a", "b", 1, 1) + results("h", "a", "b", 1, 1), [("a", "b")])
    with pytest.raises(RatingInputError, match="not rated"):
        rating_differences(results("g", "a", "b", 1, 1), [("a", "z")], RatingConfig(bootstrap=10))
