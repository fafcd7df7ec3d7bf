"""A win shared by several seats (a team, or a camp revealed at the end) reads as a win on every page, not a draw."""

from __future__ import annotations

from gameplay.engines.registry import create_game
from gameplay.models import Match
from gameplay.reads import result_lines

NAMES = {0: "Player 1", 1: "Player 2", 2: "Player 3", 3: "Player 4"}


def finished(scores):
    return Match(game_id="codenames", status=Match.Status.FINISHED, scores=scores, winner=None, seed=0)


def test_the_seats_with_the_top_score_share_the_win_unless_all_scores_are_equal():
    assert result_lines.shared_winners([0.5, 0.0, 0.5, 0.0]) == [0, 2]
    assert result_lines.shared_winners([0.25, 0.25, 0.25, 0.25]) == []
    assert result_lines.shared_winners(None) == []


def test_each_seat_reads_whether_its_side_won_and_with_whom():
    match = finished([0.5, 0.0, 0.5, 0.0])
    state = create_game("codenames", {}, 4).new_initial_state(0)
    assert result_lines.result_text(match, NAMES, 0, state).startswith("You won, with Player 3!")
    assert result_lines.result_text(match, NAMES, 1, state).startswith("You lost. Player 1 and Player 3 won.")
    assert result_lines.result_text(match, NAMES, None, state).startswith("Player 1 and Player 3 won.")
    three = finished([1 / 3, 1 / 3, 0.0, 1 / 3])
    assert result_lines.result_text(three, NAMES, 2) == "You lost. Player 1, Player 2 and Player 4 won."


def test_equal_scores_are_still_a_draw():
    assert result_lines.result_text(finished([0.5, 0.5]), NAMES, 0) == "The match ended in a draw."
