"""Does a bigger search budget change the moves? (``manage.py search_agreement``)

Each level's move at positions reached by random play is compared with the move of a reference search of many more
simulations from the same sample of the seat's information set: how often they agree, and the regret, the reference's
value of its own move minus its value of the level's move (by the reference's estimates, in score units). Where level
2 already plays level 3's moves (its regret near level 3's), no number of matches can rate the two apart: the round
robin of ``search_ladder`` then measures luck. Every search here runs its whole count, with no time limit, so the
figures do not depend on the machine.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass

from agents_app.agents.search.levels import LEVELS
from agents_app.agents.search.mcts import Budget, search
from gameplay.engines.registry import create_game

NO_TIME_LIMIT = 3600.0


@dataclass(frozen=True)
class Agreement:
    level: int
    positions: int
    agree: float  # share of positions where the level plays the reference's move
    regret: float  # mean regret against the reference, in score units
    worst: float  # the largest regret seen


def random_positions(game_id: str, seats: int, count: int, seed: int) -> list[tuple[object, int]]:
    """``count`` positions reached by 0-40 random moves, each with a seat that has more than one structured move."""
    rng = random.Random(seed)
    found: list[tuple[object, int]] = []
    attempts = 0
    while len(found) < count and attempts < 50 * count:
        attempts += 1
        state = create_game(game_id, num_seats=seats).new_initial_state(rng.randrange(10**9))
        for _ in range(rng.randrange(0, 41)):
            if state.is_terminal() or not state.current_seats():
                break
            seat = rng.choice(state.current_seats())
            actions = state.legal_action_ids(seat)
            if not actions:
                break
            state.apply_action(seat, rng.choice(actions))
        if state.is_terminal() or not state.current_seats():
            continue
        seat = state.current_seats()[0]
        if len(state.legal_action_ids(seat)) > 1:
            found.append((state, seat))
    return found


def level_agreement(game_id: str, seats: int, levels: list[int], positions: int, reference: int,
                    seed: int = 0) -> list[Agreement]:
    """How each level's moves compare with a ``reference``-simulation search's, over ``positions`` positions."""
    agree = {level: 0 for level in levels}
    regrets: dict[int, list[float]] = {level: [] for level in levels}
    places = random_positions(game_id, seats, positions, seed)
    for k, (state, seat) in enumerate(places):
        spec = state.game.spec
        resample = not spec.perfect_information or spec.has_chance
        root = state.sample_information_state(seat, random.Random(k))
        best = search(root, seat, Budget(reference, NO_TIME_LIMIT), random.Random(10**6 + k), resample=resample)
        floor = min(best.values.values())  # a move the reference never tried is counted as its worst
        for level in levels:
            budget = Budget(LEVELS[level].simulations, NO_TIME_LIMIT)
            mine = search(root, seat, budget, random.Random(k), resample=resample)
            agree[level] += mine.move == best.move
            regrets[level].append(max(0.0, best.value - best.values.get(mine.move, floor)))
    count = len(places)
    return [Agreement(level=level, positions=count, agree=agree[level] / count if count else 0.0,
                      regret=statistics.fmean(regrets[level]) if count else 0.0,
                      worst=max(regrets[level], default=0.0))
            for level in levels]
