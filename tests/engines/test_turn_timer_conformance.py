"""The conformance suite's turn timer check (``check_turn_timer``) catches the mistakes it is there for: a timeout
action that is not legal, a limit that is not whole seconds, and limits or timeout actions of a game that declares no
turn timer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.face_down import PerSeatLabelsGame, PerSeatLabelsState

from .conformance import check_playouts, check_turn_timer


class TimedFaceDownState(PerSeatLabelsState):
    timeout = ("pass", None)
    limit = 20

    def time_limit(self, seat):
        return self.limit if seat in self.current_seats() else 0

    def timeout_action(self, seat):
        return self.timeout if self.time_limit(seat) else None


class TimedFaceDownGame(PerSeatLabelsGame):
    spec = replace(PerSeatLabelsGame.spec, id="timed_face_down", turn_timer=True)
    state_class = TimedFaceDownState


def game_with(state_attrs: dict, turn_timer: bool = True):
    state_class = type("Probe", (TimedFaceDownState,), state_attrs)
    spec = replace(TimedFaceDownGame.spec, turn_timer=turn_timer)
    return type("ProbeGame", (TimedFaceDownGame,), {"spec": spec, "state_class": state_class})()


def test_a_game_whose_timeout_actions_are_legal_passes():
    finals = check_playouts(lambda: TimedFaceDownGame(), n_playouts=5)
    assert all(state.is_terminal() for state in finals)


@pytest.mark.parametrize(
    "attrs,message",
    [
        ({"timeout": ("__nope__", None)}, "is not legal"),
        ({"timeout": None}, "gives None, not"),
        ({"limit": 2.5}, "whole number of seconds"),
        ({"limit": True}, "whole number of seconds"),
    ],
)
def test_a_broken_timer_is_caught(attrs, message):
    state = game_with(attrs).new_initial_state(0)
    with pytest.raises(AssertionError, match=message):
        check_turn_timer(state)


def test_limits_without_the_declaration_are_caught():
    state = game_with({}, turn_timer=False).new_initial_state(0)
    with pytest.raises(AssertionError, match="declares no turn_timer"):
        check_turn_timer(state)
