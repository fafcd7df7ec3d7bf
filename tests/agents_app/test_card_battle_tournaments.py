"""Issue 17: an LLM configuration (the scripted OpenAI-compatible server, through the official openai client) plays
a tournament against the random agent in each of GameBench's card and battle games, and every model call is stored
with the action it chose."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from agents_app.models import AgentCall, Tournament
from gameplay.models import Event
from tests.agents_app.llm_match_support import (  # noqa: F401  (eager_celery is a fixture)
    eager_celery,
    first_listed_action,
    llm_config,
)
from tests.support.openai_server import scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

# Short games (every rule is exercised in the engines' own tests): the point here is the whole path.
GAMES = {
    "air_land_sea": ({}, None),
    "arctic_scavengers": ({"contested_count": 2}, None),
    "pit": ({"max_hands": 1, "tick_cap": 8}, 3),
    "sea_battle": ({"turn_cap": 12}, None),
}


@pytest.mark.slow  # 10-40 s each on two cores; phase 1 plays them (nothing in them differs on PostgreSQL)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_llm_tournament_against_random_finishes_with_every_model_call_stored(game_id):
    options, seats = GAMES[game_id]
    with scripted_openai_server(first_listed_action) as server:
        llm_config("llm-base", server.base_url)
        out, err = io.StringIO(), io.StringIO()
        call_command("run_tournament", game=game_id, agents="llm-base,random", matches=2, seed=3, seats=seats,
                     options=json.dumps(options), stdout=out, stderr=err)
    tournament = Tournament.objects.get()
    entries = list(tournament.entries.select_related("match").order_by("index"))
    assert tournament.status == Tournament.Status.FINISHED, out.getvalue() + err.getvalue()
    assert [e.status for e in entries] == ["finished", "finished"]
    assert "2/2 matches finished" in out.getvalue() + err.getvalue()
    matches = [e.match for e in entries]
    calls = AgentCall.objects.filter(match__in=matches, agent_name="llm-base")
    assert calls.count() == len(server.requests) > 0  # every request the server saw is stored
    assert not calls.filter(fallback=True).exists()
    # Each LLM action event has the calls that chose it.
    llm_seats = {(e.match_id, i) for e in entries for i, name in enumerate(e.seat_agents) if name == "llm-base"}
    actions = Event.objects.filter(match__in=matches, kind=Event.Kind.ACTION)
    llm_actions = [a for a in actions if (a.match_id, a.seat) in llm_seats]
    assert llm_actions
    assert set(calls.values_list("event_id", flat=True)) == {a.pk for a in llm_actions}
