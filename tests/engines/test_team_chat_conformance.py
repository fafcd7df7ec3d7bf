"""The conformance checks of team chat (``GameSpec.team_chat``: ``State.chat_audience`` / ``State.may_chat``) and of
the final teams (``State.result_teams``), on the throwaway word duel of word_duel_support (never registered)."""

from __future__ import annotations

import pytest

from tests.support.team_game import HiddenTeamRaceGame, TeamRaceGame

from .conformance import check_playouts, check_spec, random_playout
from .word_duel_support import duel_with

TEAM_CHAT = {"has_chat": True, "team_chat": True}


def test_team_chat_needs_chat():
    with pytest.raises(AssertionError, match="team_chat needs has_chat"):
        check_spec(duel_with({"team_chat": True})())


def test_a_declared_team_chat_with_valid_audiences_passes():
    own = {"chat_audience": lambda self, seat: (seat,), "may_chat": lambda self, seat: seat == 0}
    random_playout(duel_with(TEAM_CHAT, own)(), seed=1)
    random_playout(duel_with(TEAM_CHAT)(), seed=1)  # the defaults (everyone, everyone may post) are valid too


@pytest.mark.parametrize("audience,message", [
    (lambda self, seat: (1 - seat,), "leaves out its sender"),
    (lambda self, seat: (seat, 2), "do not exist"),
    (lambda self, seat: [seat], "must be a tuple"),
])
def test_a_bad_audience_fails(audience, message):
    with pytest.raises(AssertionError, match=message):
        random_playout(duel_with(TEAM_CHAT, {"chat_audience": audience})(), seed=1)


def test_may_chat_must_be_a_bool():
    with pytest.raises(AssertionError, match="must be a bool"):
        random_playout(duel_with(TEAM_CHAT, {"may_chat": lambda self, seat: "no"})(), seed=1)


@pytest.mark.parametrize("hooks", [
    {"chat_audience": lambda self, seat: (seat,)},
    {"may_chat": lambda self, seat: False},
])
def test_an_undeclared_team_chat_must_keep_the_defaults(hooks):
    with pytest.raises(AssertionError, match="declares no team_chat"):
        random_playout(duel_with({"has_chat": True}, hooks)(), seed=1)


def test_result_teams_must_list_one_int_team_per_seat():
    random_playout(duel_with(state_methods={"result_teams": lambda self: [0, 0]})(), seed=1)
    with pytest.raises(AssertionError, match="one team per seat"):
        random_playout(duel_with(state_methods={"result_teams": lambda self: [0]})(), seed=1)
    with pytest.raises(AssertionError, match="must be ints"):
        random_playout(duel_with(state_methods={"result_teams": lambda self: ["a", "b"]})(), seed=1)


@pytest.mark.parametrize("cls", [TeamRaceGame, HiddenTeamRaceGame])
def test_the_platform_tests_team_games_conform(cls):
    finals = check_playouts(cls, n_playouts=20)
    assert {tuple(state.result_teams()) for state in finals} == {(0, 1, 0, 1)}
