"""A finished match keeps its measures (Match.final_measures), so the leaderboard's teamwork table and tournament
results read outcomes without rebuilding up to 2,000 states per page; a match finished before they were kept is
still read, from its state."""

from __future__ import annotations

import pytest

from gameplay.models import Match
from gameplay.reads import selectors as match_selectors
from gameplay.writes import match_endings, services
from rating_app.selectors import teamwork_standings

pytestmark = pytest.mark.django_db

HUMAN = services.SeatController("human")


def gnomes_round_to_the_cap() -> Match:
    match = services.create_match("gnomes", [HUMAN, HUMAN], seed=1, options={"turn_cap": 1})
    return services.submit_action(match.pk, 0, "stay", expected_version=0)


def test_a_match_finished_by_a_move_keeps_every_seats_measures():
    match = gnomes_round_to_the_cap()
    assert match.status == Match.Status.FINISHED
    state = match_selectors.state_of(match)
    assert match.final_measures == [state.measures(0), state.measures(1)]
    assert match.final_measures[0]["success"] is False


def test_a_resigned_match_keeps_its_measures_too():
    match = services.create_match("gnomes", [HUMAN, HUMAN], seed=1)
    match = match_endings.resign(match.pk, 0)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.final_measures[1]["success"] is False


def test_a_game_without_declared_measures_keeps_none(monkeypatch):
    state = match_selectors.state_of(services.create_match("santorini", [HUMAN, HUMAN], seed=1))
    assert match_selectors.final_measures(state) == [state.measures(0), state.measures(1)]
    monkeypatch.setattr(type(state.game), "spec", type(state.game).spec.__class__(
        **{**type(state.game).spec.__dict__, "measures": ()}))
    assert match_selectors.final_measures(state) is None


def test_the_teamwork_table_reads_kept_measures_without_rebuilding_states(monkeypatch):
    gnomes_round_to_the_cap()
    gnomes_round_to_the_cap()

    def no_rebuild(match):
        raise AssertionError("the state was rebuilt")

    monkeypatch.setattr(match_selectors, "state_of", no_rebuild)
    [table] = teamwork_standings()
    assert [(row.player, row.matches, row.successes) for row in table["rows"]] == [("human", 2, 0)]


def test_a_match_finished_before_measures_were_kept_is_read_from_its_state():
    kept = gnomes_round_to_the_cap()
    older = gnomes_round_to_the_cap()
    Match.objects.filter(pk=older.pk).update(final_measures=None)
    [table] = teamwork_standings()
    assert table["rows"][0].matches == 2
    assert match_selectors.measures_at_end(Match.objects.get(pk=older.pk)) == kept.final_measures[0]
