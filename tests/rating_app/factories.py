"""Finished matches written straight to the database: fast, with chosen seats, scores and dates."""

from __future__ import annotations

import datetime as dt
import itertools

from django.utils import timezone

from gameplay.models import Match, Seat

_seeds = itertools.count(1)


def finished(
    seats: list[str], scores: list[float], game: str = "santorini", at: dt.datetime | None = None
) -> Match:
    """A finished match; each seat is "human" (a person) or an agent name."""
    match = Match.objects.create(
        game_id=game,
        seed=next(_seeds),
        status=Match.Status.FINISHED,
        state={"num_seats": len(seats)},
        scores=scores,
        winner=max(range(len(scores)), key=scores.__getitem__) if len(set(scores)) > 1 else None,
        finished_at=at or timezone.now(),
    )
    for index, who in enumerate(seats):
        Seat.objects.create(
            match=match,
            index=index,
            controller=Seat.Controller.HUMAN if who == "human" else Seat.Controller.AGENT,
            agent_name="" if who == "human" else who,
            display_name=f"Player {index + 1}",
        )
    return match


def small_league(at: dt.datetime | None = None) -> list[Match]:
    """Three agents and people, every pair compared both ways, on two games."""
    return [
        finished(["human", "random"], [1.0, 0.0], at=at),
        finished(["random", "human"], [0.0, 1.0], at=at),
        finished(["random", "human"], [1.0, 0.0], at=at),
        finished(["greedy", "random"], [1.0, 0.0], at=at),
        finished(["random", "greedy"], [1.0, 0.0], at=at),
        finished(["human", "greedy"], [0.0, 1.0], at=at),
        finished(["greedy", "human"], [0.0, 1.0], at=at),
        finished(["human", "random"], [1.0, 0.0], game="hex", at=at),
        finished(["random", "human"], [1.0, 0.0], game="hex", at=at),
    ]
