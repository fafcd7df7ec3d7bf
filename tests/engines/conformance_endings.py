"""Conformance checks of how a game ends: the reason it gives, its scores (played out, resigned, drawn by agreement)
and the teams of its result. Part of ``check_playouts`` (tests/engines/conformance.py)."""

from __future__ import annotations

import json

from gameplay.engines.api import State


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_result_teams(state: State) -> None:
    """``State.result_teams()``: one int team per seat, the state unchanged. Checked on finished states (the match
    service keeps it at the end for the ratings)."""
    before = _dump(state)
    teams = state.result_teams()
    assert isinstance(teams, list) and len(teams) == state.game.num_seats, (
        f"result_teams() must list one team per seat, got {teams!r}"
    )
    assert all(type(t) is int for t in teams), f"result_teams() must be ints, got {teams!r}"
    assert _dump(state) == before, "result_teams changed the state"


def check_end_reason(state: State) -> None:
    """A finished game says why it ended (State.end_reason: the page adds it to who won); an unfinished one does
    not."""
    reason = state.end_reason()
    if not state.is_terminal():
        assert reason is None, f"end_reason before the end: {reason!r}"
        return
    assert isinstance(reason, str) and reason.strip(), f"{state.game.spec.id}: a finished game gives no end_reason"
    assert reason == reason.strip() and reason[-1] in ".!", f"end_reason is not whole sentences: {reason!r}"
    assert reason[0].isupper() or reason[0].isdigit(), f"end_reason does not start a sentence: {reason!r}"


def check_terminal_scores(state: State) -> None:
    check_end_reason(state)
    scores = state.scores()
    assert len(scores) == state.game.num_seats, f"expected one score per seat, got {scores}"
    for s in scores:
        assert 0.0 <= s <= 1.0, f"score out of range: {scores}"
    assert abs(sum(scores) - 1.0) <= 1e-9, f"scores do not sum to 1: {scores}"


def check_resignation_scores(state: State) -> None:
    """Every seat may resign at any time (the platform ends the match with ``State.resignation_scores``): the
    scores are valid, the resigning team never scores above another team, and the state is not changed."""
    before = _dump(state)
    teams = state.game.teams()
    for seat in range(state.game.num_seats):
        scores = state.resignation_scores(seat)
        assert len(scores) == state.game.num_seats, f"seat {seat} resigning: one score per seat, got {scores}"
        assert all(0.0 <= s <= 1.0 for s in scores) and abs(sum(scores) - 1.0) <= 1e-9, scores
        others = [s for i, s in enumerate(scores) if teams[i] != teams[seat]]
        assert not others or scores[seat] <= min(others), f"seat {seat} resigning scores {scores}"
    assert _dump(state) == before, "resignation_scores changed the state"


def check_agreed_draw_scores(state: State) -> None:
    """A game whose rules allow a draw by agreement (``spec.draw_by_agreement``) scores one validly at any time
    (the platform ends the match with ``State.agreed_draw_scores``): no team above another, the state unchanged."""
    if not state.game.spec.draw_by_agreement:
        return
    before = _dump(state)
    scores = state.agreed_draw_scores()
    assert len(scores) == state.game.num_seats, f"an agreed draw: one score per seat, got {scores}"
    assert all(0.0 <= s <= 1.0 for s in scores) and abs(sum(scores) - 1.0) <= 1e-9, scores
    teams = state.game.teams()
    by_team = {team: sum(s for i, s in enumerate(scores) if teams[i] == team) for team in teams}
    assert max(by_team.values()) - min(by_team.values()) <= 1e-9, f"an agreed draw favours a team: {scores}"
    assert _dump(state) == before, "agreed_draw_scores changed the state"
