"""The search agent (agents_app/agents/search): information-set MCTS on the engine contract, at five levels."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from agents_app import selectors
from agents_app.agents.registry import create_agent
from agents_app.agents.search.levels import LEVELS
from agents_app.agents.search.mcts import Budget, moves_of, search
from agents_app.services import turn_view
from gameplay.engines import registry as engines
from gameplay.engines.api import Action, EngineError, Game, GameSpec, Observation, Rules, State
from tests.support.smallest_game import NimGame


def decide(agent_name: str, state, seat: int, seed: int):
    view = turn_view(state.seat_view(seat), seed)
    root = state.sample_information_state(seat, random.Random(seed))
    return create_agent(agent_name).decide(replace(view, search_root=root))


@pytest.mark.parametrize("pile,winning", [(7, "take:1"), (8, "take:2"), (10, "take:1"), (11, "take:2")])
def test_it_finds_the_winning_take_in_nim(pile, winning):
    state = NimGame({"pile": pile}).new_initial_state(1)
    assert decide("search-3", state, 0, seed=5).action_id == winning


def test_the_same_seed_gives_the_same_search():
    state = engines.create_game("santorini").new_initial_state(3)
    for _ in range(6):  # into the building phase
        seat = state.current_seats()[0]
        state.apply_action(seat, state.legal_actions(seat)[0].id)
    seat = state.current_seats()[0]
    root = state.sample_information_state(seat, random.Random(9))
    # No time limit in reach: the count decides, as at levels 1-4.
    budget = Budget(simulations=40, seconds=60, stop_when_settled=False)
    first, second = (search(root, seat, budget, random.Random(9), resample=False) for _ in range(2))
    assert (first.move, first.visits, first.simulations) == (second.move, second.visits, 40)


def positions(game_id: str, count: int, seed: int):
    """``count`` positions of ``game_id`` reached by random play, with a seat to move in each."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = engines.create_game(game_id).new_initial_state(rng.randrange(10**6))
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():
                break
            seat = rng.choice(state.current_seats())
            if not state.legal_actions(seat):
                break
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
        if not state.is_terminal() and state.current_seats() and state.legal_actions(state.current_seats()[0]):
            found.append((state, state.current_seats()[0]))
    return found


@pytest.mark.parametrize("game_id", ["santorini", "air_land_sea", "pit", "are_you_the_traitor"])
def test_a_settled_search_stops_early_with_the_move_the_whole_count_plays(game_id):
    saved = 0
    for k, (state, seat) in enumerate(positions(game_id, 6, seed=11)):
        spec = state.game.spec
        root = state.sample_information_state(seat, random.Random(k))
        resample = not spec.perfect_information or spec.has_chance
        full, early = (search(root, seat, Budget(simulations=120, seconds=60, stop_when_settled=settle),
                              random.Random(k), resample=resample) for settle in (False, True))
        assert early.move == full.move
        assert full.simulations == 120 and early.simulations <= 120
        if early.simulations < 120:
            ranked = sorted(early.visits.values(), reverse=True) + [0, 0]
            assert early.settled
            if early.simulations == 0:  # the only move
                assert len(moves_of(root, seat)) == 1
            else:
                assert ranked[0] - ranked[1] > 120 - early.simulations
        saved += 120 - early.simulations
    assert saved > 0  # it does stop early somewhere


def test_the_agent_notes_its_level_and_search():
    decision = decide("search-2", NimGame({"pile": 9}).new_initial_state(1), 0, seed=4)
    assert re.fullmatch(r"level 2: \d+ simulations in \d+ ms.*, value \d\.\d\d", decision.note), decision.note
    simulations = int(decision.note.split()[2])
    if simulations < 20:  # Nim's winning take stands out: the search may stop before its count, and says why
        assert "(settled: the simulations left could not change the move)" in decision.note


def test_a_level_stops_at_its_time_limit():
    clock = iter(range(1000))  # every reading of the clock is a second later
    state = NimGame({"pile": 30}).new_initial_state(1)
    root = state.sample_information_state(0, random.Random(1))
    result = search(root, 0, Budget(simulations=500, seconds=3.5), random.Random(1), resample=False,
                    now=lambda: float(next(clock)))
    assert result.simulations == 4  # the first always runs; readings 1, 2 and 3 are within 3.5 s, reading 4 is not


def test_levels_grow_in_budget():
    sims = [LEVELS[level].simulations for level in sorted(LEVELS)]
    assert sims == sorted(sims) and len(set(sims)) == len(sims)
    assert all(LEVELS[level].seconds <= 1.0 for level in LEVELS)


def test_it_is_offered_only_for_games_that_can_be_searched():
    for level in LEVELS:
        name = f"search-{level}"
        assert selectors.agent_plays(name, "santorini") and selectors.agent_plays(name, "hive")
        for game_id in ("codenames", "atari_boxing", "debate", "gnomes"):  # undeclared, on a clock, or a dialogue
            assert not selectors.agent_plays(name, game_id), (name, game_id)


# --- simultaneous decisions: each seat chooses without seeing the other's choice ------------------------------------


class PenniesState(State):
    """Matching pennies: both seats choose at once; seat 0 wins if the coins match. The engine takes seat 0's choice
    first, hidden from seat 1 until both have chosen."""

    PAYLOAD_FIELDS = ("choices",)

    def __init__(self, game, seed):
        super().__init__(game, seed)
        self.choices: list[str | None] = [None, None]

    def current_seats(self):
        return [seat for seat in (0, 1) if self.choices[seat] is None]

    def legal_actions(self, seat):
        return [Action("heads", "Heads"), Action("tails", "Tails")] if seat in self.current_seats() else []

    def _apply(self, seat, action_id, text):
        self.choices[seat] = action_id

    def is_terminal(self):
        return None not in self.choices

    def scores(self):
        if not self.is_terminal():
            return [0.5, 0.5]
        return [1.0, 0.0] if self.choices[0] == self.choices[1] else [0.0, 1.0]

    def observation(self, seat):
        shown = self.choices if self.is_terminal() else [c if s == seat else None for s, c in enumerate(self.choices)]
        return Observation(seat, {"choices": ["?" if c and s != seat and not self.is_terminal() else c
                                              for s, c in enumerate(shown)]}, "")

    def _draw_information_state(self, seat, rng):
        sample = self.clone()
        sample.seed = rng.getrandbits(62)
        other = 1 - seat
        if self.choices[other] is not None:
            sample.choices[other] = rng.choice(["heads", "tails"])
        return sample


class PenniesGame(Game):
    spec = GameSpec(id="pennies", name="Pennies", description="", min_seats=2, max_seats=2,
                    perfect_information=False, simultaneous=True, information_sampling=True)
    state_class = PenniesState
    rules = Rules("Match the coins.")

    def max_actions(self):
        return 2


@pytest.mark.parametrize("seat", [0, 1])
def test_simultaneous_seats_choose_without_seeing_each_other(seat):
    """Were seat 1's choice made in a tree node below seat 0's (a sequential search), seat 1 would always answer the
    coin it saw, and seat 0's every move would be worth 0: each seat's moves are worth about a half instead (near it:
    decoupled UCB with a small exploration constant chases the other seat's last choices, so it settles slowly)."""
    state = PenniesGame().new_initial_state(1)
    root = state.sample_information_state(seat, random.Random(2))
    result = search(root, seat, Budget(simulations=400, seconds=30), random.Random(3), resample=True)
    assert 0.2 < result.value < 0.8, result
    assert set(result.visits) == {("heads", None), ("tails", None)}


def test_only_a_sample_takes_actions_without_the_engine_checking_them():
    state = NimGame({"pile": 5}).new_initial_state(1)
    with pytest.raises(EngineError, match="sampled states only"):
        state.apply_sampled_action(0, "take:1")
    sample = state.sample_information_state(0, random.Random(1))
    sample.apply_sampled_action(0, "take:2")
    assert (sample.pile, state.pile, sample.sampled_for, sample.clone().sampled_for) == (3, 5, 0, 0)
