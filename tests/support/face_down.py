"""A throwaway hidden-information game for label tests: each seat holds a secret word and, on its turn, plays it
face down (drawing another) or passes.

``FaceDownState`` keeps the default ``action_labels``, so every viewer reads the mover's own label "Play the
<word> face down": a leak the conformance suite must catch. ``PerSeatLabelsState`` words it per viewer
("You play the apple face down" for the mover, "Player 1 plays a word face down" for everyone else).
"""

from __future__ import annotations

from gameplay.engines.api import Action, ActionLabels, Game, GameSpec, Observation, Rules, State

WORDS = ("apple", "river", "tiger", "cloud", "maple", "stone")


class FaceDownState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.hands = [self.rng().choice(WORDS) for _ in range(2)]
        self.face_down: list[list[str]] = [[], []]
        self.count = 0

    def current_seats(self):
        return [] if self.is_terminal() else [self.count % 2]

    def rule_topics(self, seat, action_id):
        return ("playing",)

    def legal_actions(self, seat):
        if seat not in self.current_seats():
            return []
        # Only the seat itself ever sees its legal actions, so its own word may appear here.
        return [Action("play", f"Play the {self.hands[seat]} face down"), Action("pass", "Pass")]

    def _apply(self, seat, action_id, text):
        if action_id == "play":
            self.face_down[seat].append(self.hands[seat])
            self.hands[seat] = self.rng().choice(WORDS)
        self.count += 1

    def is_terminal(self):
        return self.count >= self.game.max_actions()

    def scores(self):
        return [0.5, 0.5]

    def end_reason(self):
        return f"All {self.count} turns were played." if self.is_terminal() else None

    def secrets(self):
        # The hand and the face-down words stay secret until the end.
        return {} if self.is_terminal() else {s: [self.hands[s], *self.face_down[s]] for s in range(2)}

    def observation(self, seat):
        data = {"you": seat, "count": self.count, "face_down": [len(p) for p in self.face_down]}
        if seat is None:
            return Observation(None, data, f"Words played face down: {data['face_down']}.")
        data = {**data, "hand": self.hands[seat], "mine": list(self.face_down[seat])}
        return Observation(seat, data, f"Your word: {self.hands[seat]}. You played: {', '.join(data['mine'])}.")

    def _payload(self):
        return {"hands": list(self.hands), "face_down": [list(p) for p in self.face_down], "count": self.count}

    def _load_payload(self, payload):
        self.hands = list(payload["hands"])
        self.face_down = [list(p) for p in payload["face_down"]]
        self.count = payload["count"]


class PerSeatLabelsState(FaceDownState):
    def action_labels(self, seat, action_id, text=None):
        if action_id != "play":
            return super().action_labels(seat, action_id, text)
        public = f"{self.game.seat_name(seat)} plays a word face down"
        mine = f"You play the {self.hands[seat]} face down"
        return ActionLabels(tuple(mine if v == seat else public for v in range(self.game.num_seats)), public)


class LeakyLabelsGame(Game):
    """The default labels: every viewer reads the mover's own label, "Play the <secret word> face down"."""

    spec = GameSpec(id="face_down", name="Face down", description="test only", min_seats=2, max_seats=2,
                    perfect_information=False, has_chance=True)
    state_class = FaceDownState
    rules = Rules("Play your secret word face down, or pass.", {"playing": "A played word is drawn again."})
    length = 6  # actions in a game

    def max_actions(self):
        return self.length


class PerSeatLabelsGame(LeakyLabelsGame):
    state_class = PerSeatLabelsState
