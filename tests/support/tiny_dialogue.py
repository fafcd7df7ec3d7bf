"""A tiny two-seat dialogue game for the solver's tests (the real dialogue engines live on their own branches).

Two seats choose a day to meet, "mon" or "tue"; each values the days privately (drawn from the seed). A turn is one
text action: ``propose:<day>``, ``accept`` (the other seat's standing proposal), ``walk_away`` or ``talk``, with a
message. An accepted day pays each seat its own value of it; anything else pays 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameplay.engines.api import (
    Game,
    GameSpec,
    IllegalActionError,
    MeasureSpec,
    Observation,
    Rules,
    State,
    TextAction,
)
from gameplay.engines.dialogue import DialogueSpec, InstructionSet, clean_message, scores_from_payoffs

DAYS = ("mon", "tue")
TURNS_PER_SEAT = 3
TONES = InstructionSet("tone", ("calm", "assertive", "submissive", "any"), "Write your message in a {} tone.")
DAY_SET = InstructionSet("day", ("mon", "tue", "any"), "Steer the meeting towards {}.")


class TinyDialogueState(State):
    def __init__(self, game, seed):
        super().__init__(game, seed)
        rng = self.rng()
        self.values = [{day: rng.randint(0, 5) for day in DAYS} for _ in range(2)]
        self.thread: list[list] = []  # [seat, move, message]
        self.proposal: list = [None, None]
        self.agreed: str | None = None
        self.ended = False

    def current_seats(self):
        if self.ended or self.agreed or len(self.thread) >= 2 * TURNS_PER_SEAT:
            return []
        return [len(self.thread) % 2]

    def legal_actions(self, seat):
        return []

    def text_actions(self, seat):
        if seat not in self.current_seats():
            return []
        actions = [TextAction(f"propose:{day}", f"Propose {day}", "a message", 600) for day in DAYS]
        if self.proposal[1 - seat]:
            actions.append(TextAction("accept", f"Accept {self.proposal[1 - seat]}", "a message", 600))
        actions.append(TextAction("walk_away", "Walk away", "a message", 600))
        actions.append(TextAction("talk", "Talk", "a message", 600))
        return actions

    def validate_text(self, seat, action_id, text):
        return clean_message(text, 600)

    def _apply(self, seat, action_id, text):
        if action_id.startswith("propose:"):
            self.proposal[seat] = action_id.split(":", 1)[1]
        elif action_id == "accept":
            self.agreed = self.proposal[1 - seat]
        elif action_id == "walk_away":
            self.ended = True
        self.thread.append([seat, action_id, text])

    def is_terminal(self):
        return not self.current_seats()

    def payoff(self, seat):
        return float(self.values[seat][self.agreed]) if self.agreed else 0.0

    def scores(self):
        return scores_from_payoffs([self.payoff(0), self.payoff(1)], self.game.spec.dialogue.payoff_bounds)

    def measures(self, seat):
        return {"payoff": self.payoff(seat), "agreement": bool(self.agreed), "messages": len(self.thread)}

    def awaiting_verdict(self):
        return False

    def observation(self, seat):
        lines = []
        if seat is not None:
            lines.append("Your values: " + ", ".join(f"{d} {v}" for d, v in self.values[seat].items()))
        for who, move, message in self.thread:
            lines.append(f"Player {who + 1} ({move}): {message}")
        lines.append(f"Messages left: {2 * TURNS_PER_SEAT - len(self.thread)}")
        return Observation(seat=seat, text="\n".join(lines), data={"thread": self.thread})

    def _payload(self):
        return {"values": self.values, "thread": self.thread, "proposal": self.proposal, "agreed": self.agreed,
                "ended": self.ended}

    def _load_payload(self, payload: Mapping[str, Any]):
        self.values = payload["values"]
        self.thread = payload["thread"]
        self.proposal = payload["proposal"]
        self.agreed = payload["agreed"]
        self.ended = payload["ended"]


class TinyDialogueGame(Game):
    spec = GameSpec(
        id="tiny_dialogue",
        name="Tiny dialogue",
        description="Agree on a day (solver tests).",
        min_seats=2,
        max_seats=2,
        perfect_information=False,
        has_chance=True,
        seat_names=("Player 1", "Player 2"),
        measures=(MeasureSpec("payoff", "raw payoff"), MeasureSpec("agreement", "agreed", "bool"),
                  MeasureSpec("messages", "messages")),
        dialogue=DialogueSpec(instruction_sets=(TONES, DAY_SET), payoff_bounds=(0.0, 5.0)),
    )
    state_class = TinyDialogueState
    rules = Rules("Agree on a day to meet: propose a day, accept the other's proposal, or walk away.")

    def max_actions(self):
        return 2 * TURNS_PER_SEAT

    def new_initial_state(self, seed):
        return TinyDialogueState(self, seed)


VERDICTS = ("player 1", "player 2", "draw")


class TinyJudgedState(TinyDialogueState):
    """The tiny game judged: after every message, a judge names the better speaker (a win pays 1, a draw 0.5)."""

    def __init__(self, game, seed):
        super().__init__(game, seed)
        self.verdict: str | None = None

    def text_actions(self, seat):
        return [TextAction("talk", "Talk", "a message", 600)] if seat in self.current_seats() else []

    def current_seats(self):
        return [] if len(self.thread) >= 2 else [len(self.thread) % 2]

    def awaiting_verdict(self):
        return len(self.thread) >= 2 and self.verdict is None

    def verdict_request(self):
        lines = [f"Player {who + 1}: {message}" for who, _, message in self.thread]
        return "\n".join(lines) + "\nWho spoke better?", VERDICTS

    def fallback_verdict(self):
        return "draw"

    def apply_verdict(self, verdict, source):
        if verdict not in VERDICTS or not self.awaiting_verdict():
            raise IllegalActionError(f"no verdict {verdict!r} is awaited")
        self.verdict = verdict

    def is_terminal(self):
        return self.verdict is not None

    def payoff(self, seat):
        if self.verdict is None:
            return None
        return 0.5 if self.verdict == "draw" else float(self.verdict == f"player {seat + 1}")

    def _payload(self):
        return {**super()._payload(), "verdict": self.verdict}

    def _load_payload(self, payload):
        super()._load_payload(payload)
        self.verdict = payload["verdict"]


class TinyJudgedGame(TinyDialogueGame):
    spec = GameSpec(
        id="tiny_judged",
        name="Tiny judged dialogue",
        description="One message each, then a judge (solver tests).",
        min_seats=2,
        max_seats=2,
        seat_names=("Player 1", "Player 2"),
        measures=(MeasureSpec("payoff", "raw payoff"),),
        dialogue=DialogueSpec(instruction_sets=(InstructionSet("style", ("logos", "pathos", "any"),
                                                               "Argue with {}."),),
                              payoff_bounds=(0.0, 1.0), judged=True),
    )
    state_class = TinyJudgedState

    def new_initial_state(self, seed):
        return TinyJudgedState(self, seed)
