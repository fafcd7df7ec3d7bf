"""Tournaments of a cooperative game report success and turns, not wins (issue 21.4): in Gnomes at Night both seats
share the outcome, so "wins, draws, losses" said nothing (every match a 0.5-0.5 draw)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from agents_app.models import Tournament
from agents_app.tournaments import selectors as tournament_selectors
from gameplay.reads.selectors import state_of
from tests.agents_app.llm_match_support import eager_celery  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def test_a_gnomes_tournament_reports_successes_and_turns():
    out, err = io.StringIO(), io.StringIO()
    call_command("run_tournament", game="gnomes", agents="gnomes-mute,random", matches=4, seed=3,
                 options='{"turn_cap": 60}', stdout=out, stderr=err)
    text = out.getvalue()
    assert "a cooperative game: success = success; turns = turns" in text
    assert "wins" not in text and "losses" not in text
    tournament = Tournament.objects.get()
    results = tournament_selectors.results(tournament)
    assert results.cooperative and results.goal_measure == "success" and results.turns_measure == "turns"
    expected_successes = 0
    expected_turns = []
    for entry in tournament.entries.select_related("match"):
        measures = state_of(entry.match).measures(0)
        expected_successes += measures["success"]
        if measures["success"]:
            expected_turns.append(measures["turns"])
    for row in results.agents:
        assert row.matches == 4 and row.team.successes == expected_successes
        assert row.team.turns_to_goal == expected_turns
    (pair,) = results.pairs
    assert pair.team.successes == expected_successes
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Success rate" in page and "played together" in page and "First won" not in page


def test_a_competitive_tournament_keeps_wins_draws_and_losses():
    out = io.StringIO()
    call_command("run_tournament", game="atari_boxing", agents="boxer,random", matches=2, seed=1,
                 options='{"max_frames": 300}', stdout=out, stderr=io.StringIO())
    assert "wins  draws  losses" in out.getvalue()
    assert not tournament_selectors.results(Tournament.objects.get()).cooperative


def test_the_leaderboard_shows_success_and_turns_for_a_cooperative_game():
    call_command("run_tournament", game="gnomes", agents="gnomes-mute,random", matches=2, seed=5,
                 options='{"turn_cap": 40}', stdout=io.StringIO(), stderr=io.StringIO())
    from rating_app.selectors import teamwork_standings

    (table,) = teamwork_standings()
    assert table["game_id"] == "gnomes" and {r.player for r in table["rows"]} == {"gnomes-mute", "random"}
    assert all(r.matches == 2 for r in table["rows"])
    page = Client().get("/ratings/?source=platform").content.decode()
    assert "Cooperative games" in page and "Gnomes at Night: most successful first" in page
