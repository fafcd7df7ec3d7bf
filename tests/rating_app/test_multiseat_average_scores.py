"""The leaderboard's average score of matches with more seats than players (issue 40).

The leaderboard's match counts and ratings already count a match once per agent (``pair_counts``, ``played``) and
compare seats pairwise, teams included. Its average score now follows the tables' rule (an agent's result in a
match is the mean of its seats' results, a seat counting its team's summed score; gameplay/reads/player_results.py):
``rating_app.ratings.bootstrap._mean_scores`` averaged over seats, so a match where an agent held two seats weighed
twice, and a Codenames team's win counted 1/2 per seat. These tests say what the leaderboard shows now.
"""

from __future__ import annotations

import pytest

from rating_app.ratings import MatchResult, RatingConfig, rate
from rating_app.selectors import platform_results
from tests.rating_app.factories import finished

pytestmark = pytest.mark.django_db

def average(matches: list[MatchResult], agent: str, scope: str = "overall") -> float:
    report = rate(matches, RatingConfig(bootstrap=4, seed=0))
    return {r.agent: r.average_score for r in report.scopes[scope].ratings}[agent]


def test_the_average_score_is_per_match_the_mean_of_the_agents_seats():
    # A, B, A draw three ways (A: 1/3, B: 1/3); then B, A, B with A's seat winning (A: 1, B: 0).
    finished(["a", "b", "a"], [1 / 3, 1 / 3, 1 / 3], game="pit")
    finished(["b", "a", "b"], [0.0, 1.0, 0.0], game="pit")
    matches, _ = platform_results()
    assert average(matches, "a") == pytest.approx((1 / 3 + 1) / 2)  # per seat: (1/3 + 1/3 + 1) / 3
    assert average(matches, "b") == pytest.approx((1 / 3 + 0) / 2)  # per seat: 1/9
    assert rate(matches, RatingConfig(bootstrap=4, seed=0)).average_scores["a"]["pit"] == pytest.approx(2 / 3)


def test_a_team_win_is_a_whole_win_in_the_average_score():
    # Codenames: A holds Red (seats 0 and 2) and wins; each Red seat scores 1/2 of the team's 1.
    matches = [MatchResult("codenames", ("a", "b", "a", "b"), (0.5, 0.0, 0.5, 0.0), teams=(0, 1, 0, 1)),
               MatchResult("codenames", ("b", "a", "b", "a"), (0.5, 0.0, 0.5, 0.0), teams=(0, 1, 0, 1))]
    assert average(matches, "a") == pytest.approx(0.5)  # one win (1), one loss (0); per seat: (1/2 + 1/2 + 0 + 0) / 4
    assert average(matches, "b") == pytest.approx(0.5)
    assert average([matches[0]], "a") == pytest.approx(1.0)


def test_match_counts_already_count_a_match_once_per_agent():
    finished(["a", "b", "a"], [1 / 3, 1 / 3, 1 / 3], game="pit")
    finished(["b", "a", "b"], [0.0, 1.0, 0.0], game="pit")
    report = rate(platform_results()[0], RatingConfig(bootstrap=4, seed=0))
    scope = report.scopes["overall"]
    assert {r.agent: r.matches for r in scope.ratings} == {"a": 2, "b": 2}
    assert scope.match_counts == [[0, 2], [2, 0]]
