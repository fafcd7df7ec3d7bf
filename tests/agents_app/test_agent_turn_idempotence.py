"""An agent turn played twice moves once: what makes re-queuing a turn (late acks, the watchdog) safe.

Two tasks can hold the same turn: a redelivered message while the first run is still thinking, or the
watchdog's re-announcement of a slow turn. The second to submit is refused by the version check, re-reads the
match and plays only what is still pending.
"""

from __future__ import annotations

import pytest

from agents_app import turns
from agents_app.tasks import play_agent_turns
from gameplay.models import Event, Match
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")


def agent_first() -> Match:
    """Santorini, the random agent in seat 0 (it moves first), a person in seat 1; no task queued yet."""
    return services.create_match("santorini", [RANDOM, HUMAN], seed=9, schedule_agents=False)


def actions(match: Match) -> list[tuple[int, int]]:
    return list(Event.objects.filter(match=match, kind=Event.Kind.ACTION).values_list("seat", "version"))


def test_a_second_run_of_the_same_turn_moves_nothing():
    match = agent_first()
    applied = play_agent_turns(match.pk)
    assert applied >= 1
    after = actions(match)
    assert play_agent_turns(match.pk) == 0  # the duplicate: a person's turn now
    assert actions(match) == after and Match.objects.get(pk=match.pk).version == len(after)


def test_two_runs_deciding_the_same_turn_at_once_apply_one_move(monkeypatch):
    """While the first run thinks, a duplicate run plays the whole turn; the first one's move is then refused."""
    match = agent_first()
    real_decide = turns.decide
    duplicate_ran = []

    def slow_first_decision(agent_name, view, seed, **kwargs):
        turn = real_decide(agent_name, view, seed, **kwargs)
        if not duplicate_ran:
            duplicate_ran.append(True)
            monkeypatch.setattr(turns, "decide", real_decide)  # the duplicate decides normally
            assert play_agent_turns(match.pk) >= 1  # ... and moves first, while this decision is "thinking"
        return turn

    monkeypatch.setattr(turns, "decide", slow_first_decision)

    assert play_agent_turns(match.pk) == 0  # its decision came too late: refused, and nothing left to play

    by_duplicate = actions(match)
    assert duplicate_ran and by_duplicate
    # Versions 1..n, one action each: nothing was applied twice, nothing on top of the duplicate's moves.
    assert [v for _, v in by_duplicate] == list(range(1, len(by_duplicate) + 1))
    assert all(seat == 0 for seat, _ in by_duplicate)
    assert Match.objects.get(pk=match.pk).version == len(by_duplicate)
