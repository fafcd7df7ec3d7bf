"""Throwaway team games for the platform's team tests (team chat, teams on the page, team results in the ratings).

``TeamRaceGame``: four seats in two public teams (even seats, odd seats; ``Game.teams()``), taking turns. A seat may
"claim" (its team wins at once) or "pass"; after eight passes the game is drawn. It declares team chat: a line a seat
posts is read by its team only (``State.chat_audience``), and seat 2, the listener, may read its team's
chat but not write in it (``State.may_chat``).

``HiddenTeamRaceGame``: the same race with camps hidden during play (``Game.teams()`` is one team per seat, the
default) and revealed at the end (``State.result_teams``), like Who is Spy or Two Rooms; no chat.

Neither is registered: tests register them with ``monkeypatch.setitem(registry.GAMES, ...)``.
"""

from __future__ import annotations

from dataclasses import replace

from gameplay.engines.api import Action, Game, GameSpec, Observation, Rules, State

PASSES = 8
LISTENERS = (2,)


class TeamRaceState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.count = 0
        self.claimed_by: int | None = None

    def current_seats(self):
        return [] if self.is_terminal() else [self.count % 4]

    def legal_actions(self, seat):
        if seat not in self.current_seats():
            return []
        return [Action("claim", "Claim the win for your team"), Action("pass", "Pass")]

    def rule_topics(self, seat, action_id):
        return ("racing",)

    def _apply(self, seat, action_id, text):
        if action_id == "claim":
            self.claimed_by = seat
        self.count += 1

    def is_terminal(self):
        return self.claimed_by is not None or self.count >= PASSES

    def scores(self):
        if self.claimed_by is None:
            return [0.25] * 4
        return [0.5 if seat % 2 == self.claimed_by % 2 else 0.0 for seat in range(4)]

    def end_reason(self):
        if not self.is_terminal():
            return None
        if self.claimed_by is None:
            return f"All {PASSES} turns passed without a claim."
        return f"{self.game.seat_name(self.claimed_by)} claimed the win for their team."

    def observation(self, seat):
        data = {"count": self.count, "claimed_by": self.claimed_by}
        return Observation(seat, data, f"{self.count} turns so far.")

    def chat_audience(self, seat):
        return tuple(s for s in range(4) if s % 2 == seat % 2)

    def may_chat(self, seat):
        return seat not in LISTENERS

    def _payload(self):
        return {"count": self.count, "claimed_by": self.claimed_by}

    def _load_payload(self, payload):
        self.count = payload["count"]
        self.claimed_by = payload["claimed_by"]


class TeamRaceGame(Game):
    spec = GameSpec(id="team_race_test", name="Team race (test)", description="test only", min_seats=4, max_seats=4,
                    has_chat=True, team_chat=True, seat_names=("North", "East", "South", "West"))
    state_class = TeamRaceState
    rules = Rules("Claim the win for your team, or pass.", {"racing": "Claim or pass."})

    def max_actions(self):
        return PASSES

    def teams(self):
        return [seat % 2 for seat in range(self.num_seats)]


class HiddenTeamRaceState(TeamRaceState):
    def chat_audience(self, seat):
        return None

    def may_chat(self, seat):
        return True

    def result_teams(self):
        return [seat % 2 for seat in range(self.game.num_seats)]


class HiddenTeamRaceGame(Game):
    spec = replace(TeamRaceGame.spec, id="hidden_team_race_test", name="Hidden team race (test)", has_chat=False,
                   team_chat=False)
    state_class = HiddenTeamRaceState
    rules = TeamRaceGame.rules

    def max_actions(self):
        return PASSES
