"""Issue 17, point 5: GameBench's match data of the card and battle games is rated as before, and the platform's own
matches of those games (played through the match service) are rated on the leaderboard under the games' names."""

from __future__ import annotations

import html as html_text
import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.tournaments import services as tournament_services
from agents_app.tournaments import tasks as tournament_tasks
from gameplay.engines.registry import GAMES
from gameplay.project.celery import app as celery_app

FIXTURE = str(Path(__file__).resolve().parents[2] / "fixtures" / "gamebench_matches.json")
CARD_AND_BATTLE_GAMES = ("air_land_sea", "arctic_scavengers", "pit", "sea_battle")
# Short games: these tests are about where results land, not about the games.
SHORT = {"air_land_sea": {}, "arctic_scavengers": {"contested_count": 3}, "pit": {"max_hands": 2, "tick_cap": 10},
         "sea_battle": {"turn_cap": 8}}


class OtherRandom(RandomAgent):
    """A second name for random play, so there are two players to rate."""

    name = "random-b"


def test_gamebench_records_of_these_games_are_rated_per_game():
    out = StringIO()
    call_command("rate_matches", "--input", FIXTURE, "--bootstrap", "100", "--seed", "0", "--json", stdout=out)
    data = json.loads(out.getvalue())
    for game in CARD_AND_BATTLE_GAMES:
        assert game in data["games"] and game in data["scopes"]
        assert data["scopes"][game]["agents"], game


@pytest.mark.django_db
def test_platform_matches_of_these_games_appear_on_the_leaderboard(
        client, monkeypatch, settings, django_capture_on_commit_callbacks):
    monkeypatch.setitem(registry.AGENTS, OtherRandom.name, OtherRandom)
    monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.RATING_BOOTSTRAP = 100
    for game in CARD_AND_BATTLE_GAMES:
        tournament = tournament_services.create_or_resume(game, ["random", "random-b"], 2, 1, SHORT[game])
        tournament_tasks.schedule(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/ratings/?source=platform").status_code == 302
    html = client.get("/ratings/?source=platform").content.decode()
    sections = re.findall(r'<h3 id="game-([^"]+)"', html)
    for game in CARD_AND_BATTLE_GAMES:
        assert game in sections, (game, sections)
        assert f'data-game="{game}"' in html and html_text.escape(GAMES[game].spec.name) in html
