"""A throwaway hidden-role game whose turn order depends on the hidden role, for the derived-leak checks.

``HiddenRoleGame``: four seats, one of them the traitor (dealt from the seed; each seat knows only its own role). The
seat to act votes for another seat. A vote for the traitor ends the game (the loyal seats win); any other vote passes
the turn to the next seat; after ``MAX_VOTES`` votes the traitor wins. So "who acts after my vote?" names the traitor:
the game declares ``perfect_information=False`` and the platform never works that hint out for it.

``LeakyHiddenRoleGame``: the same game wrongly declaring ``perfect_information=True``, so the platform's next-actor
hint (``seat_view.public_next_actors``) is worked out on the full state and tells a voter who the traitor is: the
positive control that the twin check (tests/support/seen_checks.py) must catch.

Neither is registered in ``gameplay.engines.registry.GAMES``.
"""

from __future__ import annotations

import random
from dataclasses import replace

from gameplay.engines.api import Action, Game, GameSpec, IllegalActionError, Observation, Rules, State

SEATS = 4
MAX_VOTES = 6


class HiddenRoleState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.traitor = random.Random(seed).randrange(SEATS)
        self.votes: list[list[int]] = []  # [voter, voted] in order: public, everyone saw them cast
        self.caught = False

    def current_seats(self):
        return [] if self.is_terminal() else [len(self.votes) % SEATS]

    def legal_actions(self, seat):
        if seat not in self.current_seats():
            return []
        return [Action(f"vote:{other}", f"Vote for {self.game.seat_name(other)}")
                for other in range(SEATS) if other != seat]

    def rule_topics(self, seat, action_id):
        return ("voting",)

    def _apply(self, seat, action_id, text):
        kind, _, target = action_id.partition(":")
        if kind != "vote" or not target.isdigit() or int(target) == seat or not 0 <= int(target) < SEATS:
            raise IllegalActionError(f"not a vote: {action_id!r}")
        self.votes.append([seat, int(target)])
        self.caught = int(target) == self.traitor

    def is_terminal(self):
        return self.caught or len(self.votes) >= MAX_VOTES

    def scores(self):
        # Scores sum to 1: the loyal seats share a win, or the traitor takes it alone.
        if self.caught:
            return [0.0 if seat == self.traitor else 1 / (SEATS - 1) for seat in range(SEATS)]
        return [1.0 if seat == self.traitor else 0.0 for seat in range(SEATS)]

    def end_reason(self):
        # The end reveals the traitor to all (secrets() is empty then), so the reason may name it.
        if not self.is_terminal():
            return None
        traitor = self.game.seat_name(self.traitor)
        if self.caught:
            return f"{self.game.seat_name(self.votes[-1][0])} voted for the traitor, {traitor}."
        return f"All {MAX_VOTES} votes were cast without catching the traitor, {traitor}."

    def role(self, seat: int) -> str:
        return "traitor" if seat == self.traitor else "loyal"

    def observation(self, seat):
        votes = [{"voter": voter, "voted": voted} for voter, voted in self.votes]
        data: dict = {"votes": votes, "caught": self.caught}
        lines = [f"{self.game.seat_name(v)} voted for {self.game.seat_name(t)}." for v, t in self.votes]
        if seat is not None:
            data["role"] = self.role(seat)
            lines.insert(0, f"You are {'the traitor' if seat == self.traitor else 'loyal'}.")
        if self.is_terminal():  # the game is over: the traitor is revealed to all
            data["traitor"] = self.traitor
            lines.append(f"The traitor was {self.game.seat_name(self.traitor)}.")
        return Observation(seat, data, "\n".join(lines) or "No votes yet.")

    def secrets(self):
        # The traitor's own knowledge, in words no other seat's view uses, until the end reveals it.
        if self.is_terminal():
            return {}
        return {self.traitor: ["You are the traitor."]}

    def _payload(self):
        return {"traitor": self.traitor, "votes": self.votes, "caught": self.caught}

    def _load_payload(self, payload):
        self.traitor = payload["traitor"]
        self.votes = [list(v) for v in payload["votes"]]
        self.caught = payload["caught"]


class HiddenRoleGame(Game):
    spec = GameSpec(id="hidden_role_test", name="Hidden role (test)", description="test only", min_seats=SEATS,
                    max_seats=SEATS, perfect_information=False, has_chance=False,
                    seat_names=("North", "East", "South", "West"))
    state_class = HiddenRoleState
    rules = Rules("One seat is the hidden traitor. Vote for a seat: a vote for the traitor ends the game.",
                  {"voting": "Vote for another seat; a vote for the traitor ends the game, any other passes the turn."})

    def max_actions(self):
        return MAX_VOTES


class LeakyHiddenRoleGame(HiddenRoleGame):
    """The positive control: the same game, wrongly declaring perfect information."""

    spec = replace(HiddenRoleGame.spec, id="leaky_hidden_role_test", name="Leaky hidden role (test)",
                   perfect_information=True)


def voting_twins(game_cls: type[Game] = HiddenRoleGame, seed: int = 0) -> tuple[State, State, int]:
    """A loyal voter to act, and a twin in which the traitor is another seat the voter may vote for: the voter's
    observation and legal actions are the same in both (it knows only its own role)."""
    state = game_cls().new_initial_state(seed)
    voter = state.current_seats()[0]
    if state.traitor == voter:  # the voter must be loyal, or its own role would tell the twins apart
        state.apply_action(voter, f"vote:{(voter + 1) % SEATS}")
        voter = state.current_seats()[0]
    others = [s for s in range(SEATS) if s not in (voter, state.traitor)]
    twin = game_cls().state_from_json(state.to_json())
    twin.traitor = others[0]
    return state, twin, voter
