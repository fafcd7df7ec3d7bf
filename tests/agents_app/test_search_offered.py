"""The search agent's levels where people and researchers choose agents (issue 41): by their label ("Search, level 3")
in the new-match form, the study admin and the tables, by their name in what is stored and typed; in tournaments and
protocol files like any built-in agent."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents_app.models import Tournament, TournamentMatch
from agents_app.protocols import schema
from agents_app.protocols import services as protocol_services
from agents_app.tournaments import selectors, services, tasks
from gameplay.engines.registry import game_class
from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.studies.admin_seats import seat_choices
from gameplay.templatetags.gameplay_tags import agent_shown
from gameplay.web.forms import controller_choices
from rating_app.forms import LeaderboardForm

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LEVELS = [f"search-{level}" for level in range(1, 6)]


@pytest.fixture
def eager(monkeypatch, settings):
    # Matches are played in-process; with REDIS_URL set (CI phase 2) settings alone would queue them.
    monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def agent_options(html: str) -> list[tuple[str, str]]:
    """(value, text) of the Player 2 select's agent options, in page order."""
    select = re.search(r'<select name="seat_1".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="(agent:[^"]+)"[^>]*>([^<]*)</option>', select)


def test_the_new_match_form_offers_the_levels_by_label_in_order_only_for_games_they_play(client):
    santorini = agent_options(client.get("/games/santorini/new/").content.decode())
    values = [value for value, _ in santorini]
    assert values[values.index("agent:search-1"):][:5] == [f"agent:{name}" for name in LEVELS]
    texts = dict(santorini)
    assert texts["agent:search-3"] == (
        "Agent: Search, level 3 — Information-set Monte Carlo tree search, 300 simulations a move."
    )
    assert texts["agent:random"].startswith("Agent: random — ")  # an agent without a label keeps its name
    assert "agent:search-3" in dict(controller_choices("hive"))
    for game_id in ("codenames", "atari_boxing", "gnomes"):  # undeclared, on a clock, or not searched
        html = client.get(f"/games/{game_id}/new/").content.decode()
        assert "agent:search-" not in html and "Search, level" not in html, game_id


def test_the_chosen_level_is_stored_by_name_and_shown_by_label(client):
    response = client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:search-3", "seed": "4"})
    assert response.status_code == 302
    seat = Match.objects.get().seats.get(index=1)
    assert seat.agent_name == "search-3" and seat.controller_label == "agent: Search, level 3"
    assert "Player 2 (agent: Search, level 3)" in client.get("/matches/").content.decode()


def test_study_condition_seats_offer_the_levels_by_label():
    santorini = dict(seat_choices(game_class("santorini").spec))
    assert [santorini[f"agent:{name}"] for name in LEVELS] == [f"Agent: Search, level {n}" for n in range(1, 6)]
    assert not any(value.startswith("agent:search-") for value, _ in seat_choices(game_class("codenames").spec))


def test_tables_show_a_level_by_label_with_the_name_researchers_type():
    assert str(agent_shown("search-2")) == 'Search, level 2 <code class="agent-name">search-2</code>'
    assert str(agent_shown("random")) == "random" and str(agent_shown("<b>")) == "&lt;b&gt;"
    form = LeaderboardForm(games=[], agents=["human", "random", "search-4"])
    assert form.fields["agents"].choices == [
        ("human", "human"), ("random", "random"), ("search-4", "Search, level 4 (search-4)"),
    ]


def test_a_tournament_of_search_level_1_and_random_on_santorini_plays_to_the_end(eager, client):
    # A turn cap keeps it short (a capped game is a draw), for the search's playouts as for the match.
    tournament = services.create_or_resume("santorini", ["search-1", "random"], 2, 7, {"max_turns": 12})
    tasks.schedule(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    entries = list(tournament.entries.select_related("match").order_by("index"))
    assert [tuple(e.seat_agents) for e in entries] == [("search-1", "random"), ("random", "search-1")]
    for entry in entries:
        assert entry.status == TournamentMatch.Status.FINISHED and entry.error == ""
        assert entry.match.status == Match.Status.FINISHED
        # The searching seat played its own moves: each carries the search's note, none fell back to random.
        moves = entry.match.events.filter(kind="action", seat=entry.seat_agents.index("search-1"))
        notes = [e.payload.get("agent_note", "") for e in moves]
        assert notes and all(n.startswith("level 1: ") for n in notes), notes[:3]
        assert not any(e.payload.get("fallback_reason") for e in entry.match.events.all())
    assert sum(r.matches for r in selectors.results(tournament).agents) == 4
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'Search, level 1 <code class="agent-name">search-1</code>' in page


def test_a_protocol_file_naming_search_levels_validates_and_prepares_its_tournaments(tmp_path):
    data = {
        "format": 1, "name": "search-tiny", "version": "1.0",
        "agents": ["random", "search-3"],
        "games": ["santorini", "hive", "codenames"],  # Codenames: random alone plays it there
        "matches_per_pair": 2, "seeds": [1],
        "output": {"directory": str(tmp_path / "out")},
    }
    path = tmp_path / "protocol.json"
    path.write_text(json.dumps(data))
    protocol = schema.load(path)
    assert protocol.agent("search-3").llm is None  # a built-in, by name
    with pytest.raises(schema.ProtocolError, match=r"codenames.*fewer than two of the protocol's agents play it"):
        protocol_services.prepare(protocol)
    path.write_text(json.dumps({**data, "games": ["santorini", "hive"]}))
    planned = protocol_services.prepare(schema.load(path))
    assert [(p.game.game, p.agents) for p in planned] == [
        ("santorini", ("random", "search-3")), ("hive", ("random", "search-3")),
    ]
    assert all(p.tournament.entries.count() == 2 for p in planned)


def test_the_shipped_search_levels_protocol_is_valid():
    protocol = schema.load(ROOT / "fixtures/protocols/search_levels.json")
    assert [a.name for a in protocol.agents] == ["random", *LEVELS]
    planned = protocol_services.prepare(protocol)
    assert {p.game.game for p in planned} == {"santorini", "hive"}
    assert all(set(p.agents) == {"random", *LEVELS} for p in planned)
