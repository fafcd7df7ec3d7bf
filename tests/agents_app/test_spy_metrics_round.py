"""spy_metrics reports seed 002's Round (issue 40): the rounds a seat took part in, the round it went out in included,
as SpyGame counts them; the rounds finished still in the game stay in the table as Completed (rounds_completed).
Two stored matches with known outcomes: the spy voted out in round 1, and the spy outlasting two villagers."""

from __future__ import annotations

import io

import pandas
import pytest
from django.core.management import call_command

from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db


def play(seed: int, ballots_by_round) -> None:
    """A stored 4-seat match, every move made here through the match service: everyone describes, then each round's
    ballots (voter -> target, given as roles: "spy", "v1", "v2", "v3") are cast."""
    match = services.create_match("who_is_spy", [SeatController("agent", agent_name="random")] * 4, seed=seed,
                                  options={"pair_index": 0}, host_seat=None, schedule_agents=False)
    state = state_of(match)
    (spy,) = state.spies
    seat_of = dict(zip(("spy", "v1", "v2", "v3"), [spy, *(s for s in range(4) if s != spy)], strict=True))
    for ballots in ballots_by_round:
        while state.phase == "describe":
            seat = state.current_seats()[0]
            match = services.submit_action(match.pk, seat, "describe", text=f"clue {match.version}",
                                           expected_version=match.version, schedule_agents=False)
            state = state_of(match)
        for voter, target in ballots.items():
            match = services.submit_action(match.pk, seat_of[voter], f"vote:{seat_of[target]}",
                                           expected_version=match.version, schedule_agents=False)
        state = state_of(match)
    assert state.is_terminal()


def test_round_is_the_rounds_played_and_completed_keeps_the_rounds_finished_still_in(tmp_path):
    play(1, [{"spy": "v1", "v1": "spy", "v2": "spy", "v3": "spy"}])  # the spy is out in round 1: Round 1, Completed 0
    play(2, [{"spy": "v1", "v1": "v2", "v2": "v1", "v3": "v1"},  # a villager out in round 1,
             {"spy": "v2", "v2": "spy", "v3": "v2"}])  # another in round 2: the spy wins, Round 2, Completed 2
    out, path = io.StringIO(), tmp_path / "metrics.csv"
    call_command("spy_metrics", agent="random", csv=str(path), stdout=out)
    spy = pandas.read_csv(path).set_index("role").loc["spy"]
    assert spy.games == 2 and spy.win == 0.5
    assert spy["round"] == 1.5  # the seed's Round: (1 + 2) / 2
    assert spy.voted == 1.75  # 3 votes in its 1 round, 1 vote in its 2 rounds
    assert spy.rounds_completed == 1.0  # (0 + 2) / 2: what was reported as Round before
    line = next(line for line in out.getvalue().splitlines() if line.startswith("random") and " spy " in line)
    assert line.split()[3:] == ["0.50", "1.50", "1.75", "1.00"]
    assert "Round: mean rounds played (the round a seat went out in included" in out.getvalue()
