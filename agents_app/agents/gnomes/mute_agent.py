"""The mute control of seeds/003 §5: the same AISMCTS-F planner, no messages in or out.

It still learns from what it sees (the partner's blocked and successful moves are in the public history),
but it never reads the chat and never writes to it, so comparing it with the communicating agent isolates
the value of communication.
"""

from __future__ import annotations

import math

from agents_app.agents.base import Agent, Decision, TurnView

from .deliberation import check_game, deliberate, planner_config
from .flags import Flag


class GnomesMuteAgent(Agent):
    name = "gnomes-mute"
    games = frozenset({"gnomes"})  # reads the Gnomes at Night observation and its maze
    description = "Gnomes at Night: AISMCTS-F planner over sampled partner walls; never chats (the mute control)."

    def __init__(
        self,
        budget: int = 1000,
        exploration: float = math.sqrt(2),
        worlds: int = 32,
        depth: int = 12,
        rollout: str = "table",
    ):
        self.config = planner_config(budget, exploration, worlds, depth, rollout)

    def decide(self, view: TurnView) -> Decision:
        check_game(view)
        result = deliberate(view, self.config, parse=None, input_flag=Flag.NONE)
        return Decision(action_id=result.selection.action)
