"""Shared pieces of the tournament tests: two more names for random play (tournaments need distinct agents), the
autouse fixture that registers them and plays matches in-process (eager Celery, in-memory channel layer), and
helpers that run a small Santorini tournament and list its entries' matches."""

from __future__ import annotations

import pytest

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.models import Tournament, TournamentMatch
from agents_app.tournaments import services, tasks
from gameplay.project.celery import app as celery_app

Status = TournamentMatch.Status


class OtherRandom(RandomAgent):
    """A second name for random play: tournaments need distinct agents, and "random" is the only
    built-in that plays every game."""

    name = "random-b"


class ThirdRandom(RandomAgent):
    name = "random-c"


@pytest.fixture(autouse=True)
def tournament_agents(monkeypatch, settings):
    """random-b and random-c are registered, and matches are played in-process on the in-memory channel layer."""
    for cls in (OtherRandom, ThirdRandom):
        monkeypatch.setitem(registry.AGENTS, cls.name, cls)
    # Matches are played in-process; with REDIS_URL set (CI phase 2) settings alone would queue them.
    monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def run(agents=("random", "random-b"), matches=2, seed=5, **options) -> Tournament:
    tournament = services.create_or_resume("santorini", list(agents), matches, seed, options)
    tasks.schedule(tournament)
    tournament.refresh_from_db()
    return tournament


def match_ids(tournament: Tournament) -> dict[int, int | None]:
    return dict(tournament.entries.values_list("index", "match_id"))
