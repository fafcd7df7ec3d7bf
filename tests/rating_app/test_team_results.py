"""Team results in the ratings: teammates are never compared, and every member-vs-opponent pair counts the two teams'
results (MatchResult.teams; rating_app.ratings.comparisons). The match service keeps the teams as they stand at the
end (State.result_teams -> Match.final_teams), hidden camps included, and the platform's results carry them."""

from __future__ import annotations

import numpy as np
import pytest

from gameplay.engines import registry
from gameplay.models import Match, Seat
from gameplay.writes import match_endings, services
from rating_app.ratings import MatchResult, RatingInputError
from rating_app.ratings.comparisons import comparison_matrix
from rating_app.selectors import platform_results
from tests.support.team_game import HiddenTeamRaceGame, TeamRaceGame

AGENTS = ["a", "b", "c", "d"]
HUMAN = services.SeatController("human")


def rows_of(match: MatchResult, ties: str = "skip") -> np.ndarray:
    return comparison_matrix([match], AGENTS, ties).reshape(4, 4)


# --- the pure library ------------------------------------------------------------------------------------------


def test_a_four_seat_team_match_gives_exactly_the_team_comparisons():
    # A+B (0.5 each) beat C+D (0 each): four cross-team pairs, each a win by the whole team result, 1/4 of the match.
    match = MatchResult("g", ("a", "b", "c", "d"), (0.5, 0.5, 0.0, 0.0), teams=(0, 0, 1, 1))
    expected = np.zeros((4, 4))
    for i in (0, 1):
        for j in (2, 3):
            expected[i, j] = 0.25
    assert np.allclose(rows_of(match), expected)
    assert rows_of(match).sum() == pytest.approx(1.0)  # one match weighs one comparison


def test_each_member_counts_the_team_result_not_its_own_score():
    # Unequal shares inside the winning team: both members still beat each opponent by the team's result.
    match = MatchResult("g", ("a", "b", "c", "d"), (0.8, 0.2, 0.0, 0.0), teams=(0, 0, 1, 1))
    rows = rows_of(match)
    assert rows[1, 2] == pytest.approx(0.25) and rows[0, 2] == pytest.approx(0.25) and rows[2, 1] == 0
    # A split result: team 1 has 0.6 of the points, team 2 0.4, for every member-vs-opponent pair.
    split = MatchResult("g", ("a", "b", "c", "d"), (0.3, 0.3, 0.4, 0.0), teams=(0, 0, 1, 1))
    rows = rows_of(split)
    assert rows[0, 3] == pytest.approx(0.6 / 4) and rows[3, 0] == pytest.approx(0.4 / 4)
    assert rows[1, 2] == pytest.approx(0.6 / 4) and rows[2, 1] == pytest.approx(0.4 / 4)


def test_teammates_are_never_compared_even_as_a_tie():
    match = MatchResult("g", ("a", "b", "c", "d"), (0.5, 0.5, 0.0, 0.0), teams=(0, 0, 1, 1))
    for ties in ("skip", "half"):
        rows = rows_of(match, ties)
        assert rows[0, 1] == rows[1, 0] == rows[2, 3] == rows[3, 2] == 0
    drawn = MatchResult("g", ("a", "b", "c", "d"), (0.25,) * 4, teams=(0, 1, 0, 1))
    rows = rows_of(drawn, "half")
    assert rows[0, 2] == rows[1, 3] == 0  # teammates
    assert rows[0, 1] == pytest.approx(0.5 / 4) and rows.sum() == pytest.approx(1.0)
    assert rows_of(drawn, "skip").sum() == 0


def test_uneven_teams_count_team_totals():
    # One spy (seat 0) against three civilians who won: the civilians' team result is 1, the spy's 0.
    match = MatchResult("g", ("a", "b", "c", "d"), (0.0, 1 / 3, 1 / 3, 1 / 3), teams=(1, 0, 0, 0))
    rows = rows_of(match)
    assert [rows[j, 0] for j in (1, 2, 3)] == pytest.approx([1 / 3] * 3)
    assert rows[0].sum() == 0 and rows[1:, 1:].sum() == 0


@pytest.mark.parametrize("scores", [(0.5, 0.5, 0.0, 0.0), (0.25,) * 4, (0.1, 0.2, 0.3, 0.4)])
@pytest.mark.parametrize("ties", ["skip", "half"])
def test_no_teams_or_one_team_per_seat_is_the_old_behaviour_bit_for_bit(scores, ties):
    old = comparison_matrix([MatchResult("g", ("a", "b", "c", "d"), scores)], AGENTS, ties)
    singles = comparison_matrix([MatchResult("g", ("a", "b", "c", "d"), scores, teams=(3, 1, 0, 2))], AGENTS, ties)
    assert np.array_equal(old, singles)
    two = MatchResult("g", ("a", "b"), (0.7, 0.3))
    assert np.array_equal(comparison_matrix([two], ["a", "b"], ties),
                          comparison_matrix([MatchResult("g", ("a", "b"), (0.7, 0.3), teams=(0, 1))], ["a", "b"], ties))


def test_one_team_per_seat_is_required():
    with pytest.raises(RatingInputError, match="one team per seat"):
        MatchResult("g", ("a", "b", "c"), (0.5, 0.5, 0.0), teams=(0, 1))


# --- through the match service ----------------------------------------------------------------------------------


@pytest.fixture
def team_games(monkeypatch):
    for cls in (TeamRaceGame, HiddenTeamRaceGame):
        monkeypatch.setitem(registry.GAMES, cls.spec.id, cls)


def finish_with_agents(game_id: str) -> Match:
    """North claims the win for North+South; the seats are then given four agents' names, for the ratings."""
    match = services.create_match(game_id, [HUMAN] * 4, seed=1, host_seat=None)
    match = services.submit_action(match.pk, 0, "claim", expected_version=match.version)
    for index, name in enumerate(AGENTS):
        Seat.objects.filter(match=match, index=index).update(controller=Seat.Controller.AGENT, agent_name=name)
    return Match.objects.get(pk=match.pk)


@pytest.mark.django_db
def test_a_hidden_team_game_keeps_its_final_teams_and_is_rated_by_team(team_games):
    match = finish_with_agents(HiddenTeamRaceGame.spec.id)
    assert match.status == Match.Status.FINISHED
    assert match.final_teams == [0, 1, 0, 1]  # revealed at the end; one team per seat during play
    assert match.scores == [0.5, 0.0, 0.5, 0.0]
    [result], _ = platform_results()
    assert result.teams == (0, 1, 0, 1)
    rows = comparison_matrix([result], AGENTS, "half").reshape(4, 4)
    assert rows[0, 2] == rows[2, 0] == rows[1, 3] == 0  # teammates a+c, b+d
    assert rows[0, 1] == rows[0, 3] == rows[2, 1] == rows[2, 3] == pytest.approx(0.25)


@pytest.mark.django_db
def test_public_teams_are_kept_too_and_games_without_teams_keep_none(team_games):
    assert finish_with_agents(TeamRaceGame.spec.id).final_teams == [0, 1, 0, 1]
    santorini = services.create_match("santorini", [HUMAN, HUMAN], seed=1, host_seat=None)
    santorini = match_endings.resign(santorini.pk, 0)
    santorini.refresh_from_db()
    assert santorini.status == Match.Status.FINISHED and santorini.final_teams is None
    Seat.objects.filter(match=santorini, index=1).update(controller=Seat.Controller.AGENT, agent_name="a")
    results = {r.game: r for r in platform_results()[0]}
    assert results["santorini"].teams is None


@pytest.mark.django_db
def test_a_resigned_team_match_keeps_its_teams(team_games):
    match = services.create_match(HiddenTeamRaceGame.spec.id, [HUMAN] * 4, seed=1, host_seat=None)
    match = match_endings.resign(match.pk, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.final_teams == [0, 1, 0, 1]


@pytest.mark.django_db
def test_matches_finished_before_teams_were_kept_are_rated_as_before(team_games):
    match = finish_with_agents(HiddenTeamRaceGame.spec.id)
    Match.objects.filter(pk=match.pk).update(final_teams=None)
    [result], _ = platform_results()
    assert result.teams is None
