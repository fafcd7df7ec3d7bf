"""The word duel, a tiny throwaway hidden-information game of the conformance checker's tests (never registered):
each seat is dealt a secret word by chance, then seats alternate guessing the other's word, passing, re-dealing their
own word (a mid-game chance event) or, every third action, saying something (a text-only step). ``duel_with`` builds
variants of it with a changed spec or added methods, to check that mis-declared capabilities fail."""

from __future__ import annotations

import dataclasses

from gameplay.engines.api import Action, Game, GameSpec, Observation, Rules, State, TextAction

WORDS = ("apple", "river", "tiger", "cloud", "maple", "stone")
MAX_ACTIONS = 9


class DuelState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.words = [self.rng().choice(WORDS) for _ in range(2)]
        self.count = 0
        self.winner_seat: int | None = None
        self.said: list[str] = []

    def current_seats(self):
        return [] if self.is_terminal() else [self.count % 2]

    def _talk_turn(self) -> bool:
        return self.count % 3 == 2

    def legal_actions(self, seat):
        if seat not in self.current_seats() or self._talk_turn():
            return []
        # Labels name a guess by its place in WORDS: a label spelling the word would carry a secret value
        # (the word a seat holds) and the substring leak check cannot tell a guess from a reveal.
        guesses = [Action(f"guess:{w}", f"Guess word #{i + 1}") for i, w in enumerate(WORDS)]
        return guesses + [Action("pass", "Pass"), Action("redeal", "Draw a new word")]

    def rule_topics(self, seat, action_id):
        return ("guessing",)

    def text_actions(self, seat):
        if seat in self.current_seats() and self._talk_turn():
            return [TextAction("say", "Say something", hint="any words", max_length=40)]
        return []

    def validate_text(self, seat, action_id, text):
        return text.strip()

    def _apply(self, seat, action_id, text):
        if action_id == "redeal":
            self.words[seat] = self.rng().choice(WORDS)
        elif action_id.startswith("guess:") and action_id[6:] == self.words[1 - seat]:
            self.winner_seat = seat
        elif action_id == "say":
            self.said.append(text)
        self.count += 1

    def is_terminal(self):
        return self.winner_seat is not None or self.count >= MAX_ACTIONS

    def scores(self):
        if self.winner_seat is None:
            return [0.5, 0.5]
        return [1.0 if s == self.winner_seat else 0.0 for s in range(2)]

    def end_reason(self):
        if not self.is_terminal():
            return None
        if self.winner_seat is None:
            return f"The {MAX_ACTIONS}-action limit was reached without a right guess."
        return f"{self.game.seat_name(self.winner_seat)} guessed the other word."

    def secrets(self):
        # Once the game is over the words may be revealed.
        return {} if self.is_terminal() else {s: [self.words[s]] for s in range(2)}

    def observation(self, seat):
        data = {"you": seat, "count": self.count, "said": list(self.said)}
        if seat is not None:
            data["your_word"] = self.words[seat]
        text = f"You hold {data['your_word']}." if seat is not None else "Spectating."
        return Observation(seat, data, text)

    def _payload(self):
        return {"words": list(self.words), "count": self.count, "winner": self.winner_seat,
                "said": list(self.said)}

    def _load_payload(self, payload):
        self.words = list(payload["words"])
        self.count = payload["count"]
        self.winner_seat = payload["winner"]
        self.said = list(payload["said"])


class DuelGame(Game):
    spec = GameSpec(id="word_duel", name="Word duel", description="test only", min_seats=2,
                    max_seats=2, perfect_information=False, has_chance=True)
    state_class = DuelState
    rules = Rules("Guess the other seat's secret word.", {"guessing": "Guess, pass, draw a new word, or talk."})

    def max_actions(self):
        return MAX_ACTIONS


def duel_with(spec_changes: dict | None = None, state_methods: dict | None = None, game_methods: dict | None = None):
    """A variant of the word duel: its spec with ``spec_changes``, its state and game classes with these methods
    added or replaced (to build an engine that declares, or forgets to declare, a capability)."""
    state_cls = type("VariantDuelState", (DuelState,), dict(state_methods or {}))
    attrs = {"spec": dataclasses.replace(DuelGame.spec, **(spec_changes or {})), "state_class": state_cls}
    return type("VariantDuelGame", (DuelGame,), {**attrs, **(game_methods or {})})
