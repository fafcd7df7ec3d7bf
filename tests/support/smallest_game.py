"""The smallest complete game: Nim for two, the engine half of "adding a game" (README: Adding a game).

A pile of ``pile`` stones (an option, 7 by default); in turn each player takes one or two; whoever takes the last stone
wins. Perfect information, no chance, so every capability keeps its default. Registered by tests only.
"""

from __future__ import annotations

from gameplay.engines.api import Action, Game, GameSpec, Observation, OptionSpec, Rules, State


class NimState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.pile, self.to_move, self.taken_last = game.options["pile"], 0, None

    def current_seats(self) -> list[int]:
        return [] if self.is_terminal() else [self.to_move]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        return [Action(f"take:{n}", f"Take {n}") for n in (1, 2) if n <= self.pile]

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        return ("taking",)

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        self.pile -= int(action_id.partition(":")[2])
        self.taken_last, self.to_move = seat, 1 - seat

    def is_terminal(self) -> bool:
        return self.pile == 0

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        return [1.0 if seat == self.taken_last else 0.0 for seat in (0, 1)]

    def end_reason(self) -> str | None:
        # Why it ended, in a sentence (the page says who won from the scores and adds this).
        return f"{self.game.seat_name(self.taken_last)} took the last stone." if self.is_terminal() else None

    def observation(self, seat: int | None) -> Observation:
        text = f"{self.pile} stones are left; {self.game.seat_name(self.to_move)} is to take."
        return Observation(seat, {"pile": self.pile, "to_move": self.to_move}, text)

    PAYLOAD_FIELDS = ("pile", "to_move", "taken_last")  # saved and restored as they are (JSON values)


class NimGame(Game):
    spec = GameSpec(id="nim", name="Nim", description="Take one or two stones; whoever takes the last one wins.",
                    min_seats=2, max_seats=2,
                    options=(OptionSpec("pile", 7, "Stones at the start", int, bounds=(1, 99),
                                        label="Stones at the start"),))
    state_class = NimState
    rules = Rules("Players take one or two stones in turn. Whoever takes the last stone wins.",
                  {"taking": "On your turn take one or two stones, never more than are left."})

    def max_actions(self) -> int:
        return self.options["pile"]
