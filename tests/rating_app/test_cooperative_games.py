"""Cooperative games (one team) are never rated: a Gnomes at Night round has no winner between its seats."""

import pytest

from gameplay.models import Match
from gameplay.writes import services
from rating_app.selectors import cooperative_games, platform_results


def test_gnomes_is_the_cooperative_game():
    assert cooperative_games() == ["gnomes"]


@pytest.mark.django_db
def test_finished_gnomes_rounds_are_left_out_of_the_ratings():
    human = services.SeatController("human")
    gnomes = services.create_match("gnomes", [human, human], seed=1, options={"turn_cap": 1})
    services.submit_action(gnomes.pk, 0, "stay", expected_version=0)
    santorini = services.create_match("santorini", [human, human], seed=1)
    Match.objects.filter(pk=santorini.pk).update(status=Match.Status.FINISHED, scores=[1.0, 0.0], winner=0)
    assert Match.objects.get(pk=gnomes.pk).status == Match.Status.FINISHED
    results, _ = platform_results()
    assert [r.game for r in results] == ["santorini"]
