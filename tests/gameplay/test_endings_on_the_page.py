"""Issue 39, point 2, through the platform: a match of every game played to its end by agents, and one resigned by a
person, each seen by every seat. The status line names the winner(s) as the scores have it (or a draw) and then
why, in the engine's words (State.end_reason); a resignation says who resigned."""

from __future__ import annotations

import pytest

from gameplay.engines.registry import GAMES
from gameplay.models import Match
from gameplay.reads import selectors
from gameplay.writes import match_endings, services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db(transaction=True)  # agents answer once a move commits
RANDOM = SeatController("agent", agent_name="random")
HUMAN = SeatController("human")


def short_options(game_id: str) -> dict:
    return {o.name: o.short_value for o in GAMES[game_id].spec.options if o.short_value is not None}


def names(match: Match) -> dict[int, str]:
    return {s.index: s.display_name for s in match.seats.all()}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_finished_game_says_who_won_and_why_to_every_seat(game_id, eager_celery):
    cls = GAMES[game_id]
    seats = cls.spec.min_seats
    match = services.create_match(game_id, [RANDOM] * seats, seed=11, options=short_options(game_id), host_seat=None)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, game_id
    state = selectors.state_of(match)
    reason = state.end_reason()
    assert reason, f"{game_id} ended without a reason"
    scores = match.scores
    top = [s for s, score in enumerate(scores) if score == max(scores)]
    everyone_level = len(set(scores)) == 1
    who = names(match)
    for seat in match.seats.all():
        result = selectors.seat_view(match, seat).result
        if cls.spec.dialogue is not None or len(set(state.game.teams())) == 1:
            # Each seat's own payoff, or one team: the game's own sentence says how it went (and why).
            assert result == state.result_text(), (game_id, result)
            continue
        assert result.endswith(reason), (game_id, result, reason)
        if everyone_level:
            assert result.startswith("The match ended in a draw."), (game_id, result)
        elif seat.index in top:
            assert result.startswith("You won"), (game_id, result)
        else:
            assert result.startswith("You lost."), (game_id, result)
            assert all(who[s] in result for s in top), (game_id, result)


@pytest.mark.parametrize("game_id", ["santorini", "pit", "codenames"])
def test_a_resigned_game_says_who_resigned(game_id):
    cls = GAMES[game_id]
    match = services.create_match(game_id, [HUMAN] * cls.spec.min_seats, seed=3, schedule_agents=False)
    match_endings.resign(match.pk, 0)
    match.refresh_from_db()
    assert selectors.seat_view(match, match.seats.get(index=0)).result.startswith("You resigned")
    other = selectors.seat_view(match, match.seats.get(index=1)).result
    assert other.startswith(f"{names(match)[0]} resigned"), other
