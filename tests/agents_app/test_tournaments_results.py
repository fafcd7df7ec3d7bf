"""Tournament results and progress: wins, draws, losses and points per agent (most points first) and per pair of
agents, from the matches' scores; and the progress counts of entries by status."""

from __future__ import annotations

import pytest

from agents_app.tournaments import selectors, services
from gameplay.models import Match
from tests.agents_app.tournaments_support import Status, run, tournament_agents  # noqa: F401 (an autouse fixture)

pytestmark = pytest.mark.django_db


def test_results_count_wins_draws_losses_and_points_per_agent_and_per_pair():
    tournament = run(agents=("random", "random-b", "random-c"), matches=2, seed=8)
    scores = {0: [1.0, 0.0], 1: [0.5, 0.5], 2: [0.0, 1.0], 3: [1.0, 0.0], 4: [0.5, 0.5], 5: [0.25, 0.75]}
    for entry in tournament.entries.all():
        Match.objects.filter(pk=entry.match_id).update(scores=scores[entry.index])
    # seats: 0 random|random-b, 1 random-b|random, 2 random|random-c, 3 random-c|random, 4 b|c, 5 c|b
    results = selectors.results(tournament)
    rows = {r.agent: r for r in results.agents}
    assert (rows["random"].matches, rows["random"].wins, rows["random"].draws, rows["random"].losses) == (4, 1, 1, 2)
    assert rows["random"].points == 1.0 + 0.5 + 0.0 + 0.0
    assert (rows["random-b"].wins, rows["random-b"].draws, rows["random-b"].losses) == (1, 2, 1)
    assert rows["random-b"].points == 0.0 + 0.5 + 0.5 + 0.75
    assert (rows["random-c"].wins, rows["random-c"].draws, rows["random-c"].losses) == (2, 1, 1)
    assert [r.agent for r in results.agents] == ["random-c", "random-b", "random"]  # most points first
    pairs = {(p.first, p.second): p for p in results.pairs}
    ab = pairs[("random", "random-b")]
    assert (ab.matches, ab.first_wins, ab.draws, ab.second_wins) == (2, 1, 1, 0)
    assert (ab.first_points, ab.second_points) == (1.5, 0.5)
    bc = pairs[("random-b", "random-c")]
    assert (bc.first_wins, bc.draws, bc.second_wins, bc.first_points, bc.second_points) == (1, 1, 0, 1.25, 0.75)


def test_progress_counts_entries_by_status():
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 5, 1)
    for index, status in enumerate([Status.QUEUED, Status.RUNNING, Status.FINISHED, Status.FAILED]):
        tournament.entries.filter(index=index).update(status=status)
    p = selectors.progress(tournament)
    assert (p.total, p.pending, p.queued, p.running, p.finished, p.failed) == (5, 1, 1, 1, 1, 1)
    assert not p.done and p.percent == 20
