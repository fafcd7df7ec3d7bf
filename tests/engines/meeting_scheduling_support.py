"""Shared helper of the Meeting Scheduling engine tests: a new game of the fixed scenario."""

from __future__ import annotations

from gameplay.engines.meeting_scheduling import MeetingGame


def fixed(**options):
    return MeetingGame({"scenario": "fixed", **options}).new_initial_state(3)
