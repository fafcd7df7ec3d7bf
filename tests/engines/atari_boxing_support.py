"""Shared helper of the Atari Boxing engine tests: White boxes with the scripted boxer while Black stands still."""

from __future__ import annotations

from agents_app.agents.boxer import boxer_action


def scripted_vs_still(state, seat):
    if seat == 1:
        return "noop"
    observation = state.observation(seat)
    me, them = observation.data["boxers"]
    return boxer_action(me, them)
