"""One decision of a planning agent: observation -> knowledge -> sampled worlds -> search -> selection.

Shared by the communicating and the mute agent, so the two differ only in the chat they read and write.
Only ``TurnView.observation.data`` is read (own walls, token, the treasure when visible, history, chat).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from agents_app.agents.base import TurnView

from .belief import Parse, PartnerKnowledge, partner_knowledge, treasure_belief, wall_probabilities
from .flags import Flag
from .planner import Planner, PlannerConfig, Problem, SearchTree, make_problem
from .select import Selection, select_best_action
from .worlds import Grid

_GRIDS: dict[int, Grid] = {}


def grid_for(size: int) -> Grid:
    """Index tables are pure functions of the board size: build them once per process."""
    if size not in _GRIDS:
        _GRIDS[size] = Grid(size)
    return _GRIDS[size]


@dataclass
class Deliberation:
    knowledge: PartnerKnowledge
    problem: Problem
    tree: SearchTree
    selection: Selection


def check_game(view: TurnView) -> None:
    if view.game_id != "gnomes":
        raise ValueError(f"Gnomes at Night agents only play 'gnomes', not {view.game_id!r}")


def deliberate(view: TurnView, config: PlannerConfig, parse: Parse | None, input_flag: Flag) -> Deliberation:
    """Plan this turn; ``parse`` reads the partner's chat (None: ignore chat, as the mute agent does)."""
    data = view.observation.data
    rng = random.Random(view.seed)
    knowledge = partner_knowledge(data, view.seat, parse)
    grid = grid_for(int(data["size"]))
    problem = make_problem(
        grid,
        ego_walls=set(data["walls"]),
        token=tuple(data["token"]),
        legal={action.id for action in view.legal_actions},
        rejected=knowledge.rejected,
        known_walls=knowledge.assumed_walls(),
        known_open=knowledge.open_edges,
        treasure_weights=treasure_belief(data, knowledge.hints, knowledge.moves),
        wall_chance=wall_probabilities(knowledge, config.wall_prior),
        budget=int(data["turn_cap"]) - int(data["turn"]),
        rng=rng,
        config=config,
    )
    tree = Planner(config).search(problem, rng)
    selection = select_best_action(tree, problem, input_flag, rng)
    return Deliberation(knowledge, problem, tree, selection)


def planner_config(budget: int, exploration: float, worlds: int, depth: int, rollout: str) -> PlannerConfig:
    return PlannerConfig(iterations=budget, exploration=exploration, worlds=worlds, max_depth=depth, rollout=rollout)
