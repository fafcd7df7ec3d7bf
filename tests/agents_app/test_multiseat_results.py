"""Tournament results of matches of more than two seats, held by a pair of agents in turn (issue 40).

An agent's result in a match is the mean of its seats' results (gameplay/reads/player_results.py); summing them made
the agent holding two seats of three "win" every three-way draw of Pit. Matches are written straight to the database
(tests/rating_app/factories.py), so nothing is played: every table is checked against chosen scores.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.models import Tournament, TournamentMatch
from agents_app.tournaments import selectors, services
from tests.rating_app.factories import finished

pytestmark = pytest.mark.django_db

A, B = "random", "random-b"
DRAW3 = [1 / 3, 1 / 3, 1 / 3]


class OtherRandom(RandomAgent):
    name = B


@pytest.fixture(autouse=True)
def second_agent(monkeypatch):
    monkeypatch.setitem(registry.AGENTS, B, OtherRandom)


def tournament_of(game: str, results: list[tuple[list[str], list[float], list[int] | None]], seed: int = 1,
                  **options) -> Tournament:
    """The tournament of ``game`` between A and B with one finished entry per (seats, scores, final teams)."""
    seats = len(results[0][0])
    tournament = services.create_or_resume(game, [A, B], len(results), seed, options, seats=seats)
    for entry, (seat_agents, scores, teams) in zip(tournament.entries.order_by("index"), results, strict=True):
        match = finished(seat_agents, scores, game=game)
        match.final_teams = teams
        match.save(update_fields=["final_teams"])
        TournamentMatch.objects.filter(pk=entry.pk).update(
            seat_agents=seat_agents, match=match, status=TournamentMatch.Status.FINISHED
        )
    return tournament


def rows(tournament: Tournament) -> tuple[dict, selectors.PairResult]:
    results = selectors.results(tournament)
    (pair,) = results.pairs
    return {r.agent: r for r in results.agents}, pair


def record(row) -> tuple:
    return row.matches, row.wins, row.draws, row.losses, round(row.points, 9)


def test_six_three_way_draws_of_pit_are_six_draws_for_both_agents_everywhere():
    tournament = tournament_of("pit", [([A, B, A], DRAW3, None)] * 6)
    per_agent, pair = rows(tournament)
    assert record(per_agent[A]) == (6, 0, 6, 0, 2.0)  # each draw is 1/3 to each: the mean of its seats
    assert record(per_agent[B]) == (6, 0, 6, 0, 2.0)
    assert (pair.matches, pair.first_wins, pair.draws, pair.second_wins) == (6, 0, 6, 0)
    assert round(pair.first_points, 9) == round(pair.second_points, 9) == 2.0
    assert [e.winner_agent for e in selectors.entries(tournament)] == [""] * 6


def test_the_draws_hold_with_the_seats_swapped_every_other_match_and_in_five_seats():
    # As the tournament seats them (A, B, A then B, A, B); and five seats of 0.2, whose means differ by rounding.
    three = tournament_of("pit", [([A, B, A], DRAW3, None), ([B, A, B], DRAW3, None)])
    five = tournament_of("pit", [([A, B, A, B, A], [0.2] * 5, None), ([B, A, B, A, B], [0.2] * 5, None)], seed=2)
    for tournament in (three, five):
        per_agent, pair = rows(tournament)
        assert (per_agent[A].draws, per_agent[B].draws, pair.draws) == (2, 2, 2)
        assert [e.winner_agent for e in selectors.entries(tournament)] == ["", ""]


def test_an_agent_wins_by_the_mean_of_its_seats_not_their_sum():
    # A's seats hold 0.3 and 0.3 (sum 0.6, mean 0.3) against B's 0.4: B won the match.
    # A's seats hold 1 and 0 (mean 0.5) against B's 0: A won, with 0.5 points.
    tournament = tournament_of("pit", [([A, B, A], [0.3, 0.4, 0.3], None), ([A, B, A], [1.0, 0.0, 0.0], None)])
    per_agent, pair = rows(tournament)
    assert record(per_agent[A]) == (2, 1, 0, 1, 0.8)
    assert record(per_agent[B]) == (2, 1, 0, 1, 0.4)
    assert (pair.first_wins, pair.draws, pair.second_wins) == (1, 0, 1)
    assert (round(pair.first_points, 9), round(pair.second_points, 9)) == (0.8, 0.4)
    assert [e.winner_agent for e in selectors.entries(tournament)] == [B, A]


def test_a_match_played_in_teams_counts_each_seat_its_teams_result():
    # Who is Spy, four seats A, B, A, B; B's seat 1 is the spy (final teams: civilians 0, spy 1).
    civilians_won = [1 / 3, 0.0, 1 / 3, 1 / 3]  # A: both seats won (1); B: one of two (1/2)
    spy_won = [0.0, 1.0, 0.0, 0.0]  # A: 0; B: one of two (1/2)
    tournament = tournament_of("who_is_spy", [([A, B, A, B], civilians_won, [0, 1, 0, 0]),
                                              ([A, B, A, B], spy_won, [0, 1, 0, 0])])
    per_agent, pair = rows(tournament)
    assert record(per_agent[A]) == (2, 1, 0, 1, 1.0)
    assert record(per_agent[B]) == (2, 1, 0, 1, 1.0)
    assert [e.winner_agent for e in selectors.entries(tournament)] == [A, B]


def test_a_codenames_win_is_one_point_to_the_winning_team():
    # Seats alternate teams and the pair alternates seats: A holds Red (0, 2), B Blue (1, 3).
    red_won, shared = [0.5, 0.0, 0.5, 0.0], [0.25] * 4
    tournament = tournament_of("codenames", [([A, B, A, B], red_won, [0, 1, 0, 1]),
                                             ([A, B, A, B], shared, [0, 1, 0, 1])])
    per_agent, pair = rows(tournament)
    assert record(per_agent[A]) == (2, 1, 1, 0, 1.5)
    assert record(per_agent[B]) == (2, 0, 1, 1, 0.5)
    assert (pair.first_wins, pair.draws, pair.second_wins, pair.first_points, pair.second_points) == (1, 1, 0, 1.5, 0.5)


def test_the_page_and_the_command_report_the_draws(client):
    tournament = tournament_of("pit", [([A, B, A], DRAW3, None), ([B, A, B], DRAW3, None)] * 3)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert " won\n" not in page and page.count("draw\n") == 6
    for agent in (A, B):
        row = re.search(rf'<tr data-agent="{agent}">(.*?)</tr>', page, re.S).group(1)
        assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["6", "0", "6", "0", "2"]
    assert "mean score of the seats it held" in page
    assert page.count("(scores 0.333–0.333–0.333)") == 6

    out = io.StringIO()
    call_command("run_tournament", "--game", "pit", "--agents", f"{A},{B}", "--matches", "6", "--seed", "1",
                 "--seats", "3", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "Resuming: 6 of 6 matches already finished." in text
    assert f"{A:<8}  {6:>7}  {0:>4}  {6:>5}  {0:>6}  {2:>7g}" in text
    assert f"{B:<8}  {6:>7}  {0:>4}  {6:>5}  {0:>6}  {2:>7g}" in text
    assert f"{A} vs {B}: 6 matches, 0–6–0, points 2–2" in text
    assert "the mean score of the seats it held" in text
