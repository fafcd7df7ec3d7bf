"""Agents box (issue 20.3): an LLM configuration (text, and text plus the frame with vision on) decides at every
decision point of Atari Boxing through a real scripted OpenAI-compatible server, in a tournament against random
with every model call stored; its prompt never carries the opponent's choice before both are in. The scripted
boxer beats the random agent."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from agents_app.agents.base import TurnView
from agents_app.agents.boxer import BoxerAgent
from agents_app.models import AgentCall, Tournament
from gameplay.engines.atari_boxing import BoxingGame
from tests.agents_app.llm_match_support import (  # noqa: F401  (eager_celery is a fixture)
    eager_celery,
    first_listed_action,
    llm_config,
)
from tests.support.openai_server import scripted_openai_server

SHORT_BOUT = '{"max_frames": 150}'  # 10 decision points of 15 frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("vision", [False, True])
def test_an_llm_boxes_random_in_a_tournament_with_every_call_stored(eager_celery, vision):  # noqa: F811
    with scripted_openai_server(first_listed_action) as server:
        llm_config("llm-boxer", server.base_url, vision=vision)
        out, err = io.StringIO(), io.StringIO()
        call_command("run_tournament", game="atari_boxing", agents="llm-boxer,random", matches=2, seed=3,
                     options=SHORT_BOUT, stdout=out, stderr=err)
    tournament = Tournament.objects.get()
    entries = list(tournament.entries.order_by("index"))
    assert tournament.status == Tournament.Status.FINISHED
    assert [e.status for e in entries] == ["finished", "finished"]
    calls = AgentCall.objects.filter(match__in=[e.match for e in entries], agent_name="llm-boxer")
    # The other requests are the preflight's probes of the endpoint (with vision: does it take images?).
    moves = [r for r in server.requests if "Time left" in str(r.messages)]
    assert calls.count() == len(moves) == 20  # one call per decision point, 10 per bout
    assert not calls.filter(fallback=True).exists() and all(c.event_id for c in calls)
    for request in moves:
        content = request.messages[-1]["content"]
        parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
        images = [p for p in parts if p.get("type") == "image_url"]
        assert bool(images) is vision
        if images:
            assert images[0]["image_url"]["url"].startswith("data:image/png;base64,")
        text = "\n".join(p["text"] for p in parts if p.get("type") == "text")
        assert "Time left" in text and "upfire" in text


def test_the_observation_of_a_seat_never_shows_the_other_seat_s_pending_choice():
    state = BoxingGame().new_initial_state(0)
    state.apply_action(0, "downrightfire")
    text = state.observation(1).text
    assert "downrightfire" not in text and "has chosen (hidden until you choose)" in text


def test_the_scripted_boxer_beats_random_most_bouts():
    """Six full bouts at the default 15 frames a decision point, seats alternating: the tournament's claim at engine
    speed (the management command's 10-bout run is quoted in the closing note)."""
    import random

    boxer = BoxerAgent()
    margins = []
    for seed in range(6):
        seat = seed % 2
        state = BoxingGame().new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for s in list(state.current_seats()):
                legal = state.legal_actions(s)
                if s == seat:
                    view = TurnView("atari_boxing", s, state.observation(s), tuple(legal))
                    state.apply_action(s, boxer.decide(view).action_id)
                else:
                    state.apply_action(s, rng.choice(legal).id)
        margins.append(state.ringside.scores[seat] - state.ringside.scores[1 - seat])
    assert sum(m > 0 for m in margins) >= 5, margins
