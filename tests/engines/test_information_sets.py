"""Every game that can sample a seat's information set (declared, or perfect information) passes the information-set
conformance (tests/engines/information_sets.py), and the checks catch samplers that peek at the true hidden state."""

from __future__ import annotations

import random

import pytest

from gameplay.engines.api import (
    Action,
    EngineError,
    Game,
    GameSpec,
    Observation,
    Rules,
    State,
)
from gameplay.engines.registry import GAMES, create_game

from .information_sets import check_information_sets, check_sample, check_sampling_game

SAMPLING_GAMES = sorted(
    game_id for game_id in GAMES
    if GAMES[game_id].spec.samples_information_sets and not GAMES[game_id].spec.realtime
)
HIDDEN = [game_id for game_id in SAMPLING_GAMES if not GAMES[game_id].spec.perfect_information]


@pytest.mark.parametrize("game_id", SAMPLING_GAMES)
def test_every_sampling_game_samples_only_what_its_seat_has_seen(game_id):
    spec = GAMES[game_id].spec

    def make_game(seed):
        seats = spec.min_seats if seed % 2 == 0 else min(spec.max_seats, spec.min_seats + 1)
        return create_game(game_id, num_seats=seats)

    check_sampling_game(make_game)


def test_a_game_with_hidden_information_cannot_sample_without_declaring_it():
    undeclared = [g for g in GAMES if not GAMES[g].spec.samples_information_sets]
    assert undeclared, "every game declares sampling: this test has nothing left to check"
    game = create_game(undeclared[0])
    with pytest.raises(EngineError):
        game.new_initial_state(1).sample_information_state(0, random.Random(1))


# --- a small game whose sampler can be made to peek -------------------------------------------------------------


class GuessState(State):
    """Each seat holds a hidden card of 1..9 (distinct); seat 0 guesses whether seat 1's card is higher than its
    own, then seat 1 guesses the same of seat 0's."""

    PAYLOAD_FIELDS = ("cards", "guesses")
    peek = "none"

    def __init__(self, game, seed):
        super().__init__(game, seed)
        self.cards = self.rng().sample(range(1, 10), 2)
        self.guesses: list[str] = []

    def current_seats(self):
        return [] if self.is_terminal() else [len(self.guesses)]

    def legal_actions(self, seat):
        if seat not in self.current_seats():
            return []
        return [Action("higher", "Higher"), Action("lower", "Lower")]

    def _apply(self, seat, action_id, text):
        self.guesses.append(action_id)

    def is_terminal(self):
        return len(self.guesses) == 2

    def scores(self):
        if not self.is_terminal():
            return [0.5, 0.5]
        right = [(self.cards[1 - s] > self.cards[s]) == (self.guesses[s] == "higher") for s in range(2)]
        if right[0] == right[1]:
            return [0.5, 0.5]
        return [1.0, 0.0] if right[0] else [0.0, 1.0]

    def observation(self, seat):
        if seat is None:
            return Observation(None, {"guesses": list(self.guesses)}, f"Guesses: {self.guesses}")
        return Observation(seat, {"card": self.cards[seat], "guesses": list(self.guesses)},
                           f"Your card: {self.cards[seat]}. Guesses: {self.guesses}")

    def secrets(self):
        return {s: [f"card {self.cards[s]}"] for s in range(2)}

    def _draw_information_state(self, seat, rng):
        sample = self.clone()
        sample.seed = rng.getrandbits(62)
        other = 1 - seat
        fresh = rng.choice([c for c in range(1, 10) if c != self.cards[seat]])
        if self.peek == "sometimes" and rng.random() < 0.5:
            fresh = self.cards[other]  # keeps the truth on half the draws
        elif self.peek == "seeded":
            fresh = random.Random(self.cards[other] * 1000 + rng.randrange(1000)).choice(
                [c for c in range(1, 10) if c != self.cards[seat]])
        elif self.peek == "truth":
            fresh = self.cards[other]
        sample.cards[other] = fresh
        return sample


def guess_game(peek: str) -> Game:
    state_class = type(f"GuessState_{peek}", (GuessState,), {"peek": peek})
    spec = GameSpec(id="guess", name="Guess", description="", min_seats=2, max_seats=2, perfect_information=False,
                    has_chance=True, information_sampling=True)

    class GuessGame(Game):
        def max_actions(self):
            return 2

    GuessGame.spec = spec
    GuessGame.state_class = state_class
    GuessGame.rules = Rules("Guess higher or lower.")
    return GuessGame()


def test_an_honest_sampler_passes():
    assert check_information_sets(guess_game("none"), seed=1, every=1)
    check_sample(guess_game("none").new_initial_state(3), 0)


@pytest.mark.parametrize("peek", ["sometimes", "seeded"])
def test_a_sampler_that_reads_the_true_hidden_card_is_caught(peek):
    with pytest.raises(AssertionError, match="look the same to seat"):
        for seed in range(5):
            check_sample(guess_game(peek).new_initial_state(seed), 0)


def test_a_sampler_that_returns_the_truth_is_caught():
    with pytest.raises(AssertionError, match="stayed where they truly are in every sample"):
        check_sampling_game(lambda seed: guess_game("truth"))
    assert not check_information_sets(guess_game("truth"), seed=1)  # the playouts' own check: nothing drawn anew
    for seed in range(5):
        assert not check_sample(guess_game("truth").new_initial_state(seed), 0)


def test_a_sample_that_shows_the_seat_something_else_is_caught():
    class Careless(GuessState):
        def _draw_information_state(self, seat, rng):
            sample = self.clone()
            sample.cards = rng.sample(range(1, 10), 2)  # redeals the seat's own card too
            return sample

    game = guess_game("none")
    type(game).state_class = Careless
    with pytest.raises(AssertionError, match="looks different"):
        for seed in range(5):
            check_sample(game.new_initial_state(seed), 0)
