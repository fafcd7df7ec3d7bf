"""The search agent: information-set MCTS (``mcts.py``) on the sample of its seat's information set that the
platform hands over with the seat's view (``TurnView.search_root``), at one of five strength levels.

It plays every game whose engine can sample a seat's information set (``GameSpec.samples_information_sets``) and is
played move by move: not a game on a clock (``realtime``) nor a dialogue (whose moves are messages). It reads
nothing else of the match. Deterministic for a seed: the platform derives the decision's seed from the match's.
"""

from __future__ import annotations

import random

from gameplay.engines.registry import UnknownGameError, game_class

from ..base import Agent, Decision, TurnView
from .levels import DEFAULT_LEVEL, LEVELS, level_label, level_name
from .mcts import search


def searchable(game_id: str) -> bool:
    """Whether the search agent can play ``game_id``, from what its engine declares."""
    try:
        spec = game_class(game_id).spec
    except UnknownGameError:
        return False
    return spec.samples_information_sets and not spec.realtime and spec.dialogue is None


class SearchAgent(Agent):
    level: int = DEFAULT_LEVEL
    wants_search_root = True

    @classmethod
    def plays(cls, game_id: str) -> bool:
        return searchable(game_id)

    def decide(self, view: TurnView) -> Decision:
        root = view.search_root
        if root is None:
            raise ValueError(f"{view.game_id} offers no sample of the seat's information set to search")
        if not view.legal_actions:
            # Only free text to give (talk in a game of hidden roles): the engine's own example, as a bot would.
            spec = next((t for t in view.text_actions if t.example), None)
            if spec is None:
                raise ValueError("only free text without an example: nothing to search")
            return Decision(action_id=spec.id, text=spec.example, note="text: the engine's example")
        spec = root.game.spec
        resample = not spec.perfect_information or spec.has_chance
        result = search(root, view.seat, LEVELS[self.level], random.Random(view.seed), resample=resample)
        action_id, text = result.move
        budget = LEVELS[self.level]
        if result.simulations >= budget.simulations:
            stopped = ""
        elif result.settled:
            stopped = " (settled: the simulations left could not change the move)"
        else:
            stopped = " (stopped by its time limit)"
        note = (f"level {self.level}: {result.simulations} simulations in {result.seconds * 1000:.0f} ms{stopped}, "
                f"value {result.value:.2f}")
        return Decision(action_id=action_id, text=text, note=note)


def _level_class(level: int) -> type[SearchAgent]:
    return type(f"SearchLevel{level}Agent", (SearchAgent,), {
        "name": level_name(level),
        "level": level,
        "label": level_label(level),
        "description": "Information-set Monte Carlo tree search, "
                       f"{'about a second of thinking' if level == 5 else f'{LEVELS[level].simulations} simulations'}"
                       " a move.",
    })


SEARCH_AGENTS: tuple[type[SearchAgent], ...] = tuple(_level_class(level) for level in sorted(LEVELS))
