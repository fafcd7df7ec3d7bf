"""AISMCTS-F search (seeds/003 Algorithm 1) over a pool of determinized worlds.

One iteration: pick a world from the pool (round robin), walk the information-set tree from the root with
UCB, expand one untried action, value the new leaf, and back the value up the path.

Nodes are keyed by the public history: the action sequence from the root plus the token cell each action
led to (both players see the token, so a blocked partner move and a successful one are different
information sets; this also gives every node one cell, so its valid actions are well defined).

Explore (the actions a node may try):
- ego nodes: the moves open on the ego's OWN side (known exactly) plus stay;
- partner nodes: every on-grid move minus D[cell], the actions the partner rejected there: the ego
  cannot know which moves the partner's side allows, so it assumes all of them until told otherwise.

Two trees. Algorithm 1 keeps one tree per player and descends both in lockstep. Here every action is public
and the reward is common, so the two trees always have the same shape and the same statistics; they are
stored once (selection at a node uses the statistics of the player to move there, which are the same
numbers). This halves the work per iteration at no loss of fidelity.

Leaf value ("table" rollout, the default): the world's exact cooperative cost-to-go from the leaf, so the
return is reward = 20 - 0.1 * turns - 0.5 * blocked partner moves when the treasure is reached within the
remaining turns, and the turn-cap penalty -0.1 * remaining otherwise. "random" rollout plays uniformly
random valid moves from the leaf, like the paper, for at most ``rollout_depth`` turns.

Normalisation: UCB with c = sqrt(2) wants values in [0, 1]. A return is written as a cost in turns (cost =
turns + 5 * blocked moves, + 200 for a failed round: the reward's own affine map, reward = 20 - 0.1 * cost)
and valued by its regret against the same world's optimum from the root:
value = 1 - (cost - optimum(world)) / value_scale, clipped to [0, 1]. Subtracting a per-world constant does
not change which action is best (every action meets the same mix of worlds) but removes the spread between
worlds (a treasure 3 or 30 turns away), which otherwise swamps the one- or two-turn differences between
moves (the clipping makes this exact only for regrets under value_scale, where the comparisons that matter
are). value_scale (10 turns) keeps one turn worth 0.1, enough for UCB to separate moves in 1,000 iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from gameplay.engines.gnomes.maze import ACTIONS, Cell

from .worlds import EGO, WALL_PRIOR, Grid, World, sample_worlds

HIT_COST = 5  # a blocked move costs -0.5, five turns' worth of -0.1
FAIL_COST = 200  # missing the +20 of the treasure, in turns
ACTION_INDEX = {action: index for index, action in enumerate(ACTIONS)}


@dataclass(frozen=True)
class PlannerConfig:
    iterations: int = 1000
    exploration: float = math.sqrt(2)
    worlds: int = 32
    max_depth: int = 12
    rollout: str = "table"  # or "random"
    rollout_depth: int = 40
    wall_prior: float = WALL_PRIOR
    value_scale: float = 10.0  # turns of regret that bring a return's value down to 0

    def __post_init__(self):
        if self.rollout not in ("table", "random"):
            raise ValueError(f"rollout must be 'table' or 'random', not {self.rollout!r}")
        if self.iterations < 1 or self.worlds < 1 or self.max_depth < 1:
            raise ValueError("iterations, worlds and max_depth must be positive")


@dataclass
class Problem:
    """One decision's search problem, derived only from the ego's observation."""

    grid: Grid
    ego_next: list[int]
    root_cell: int
    root_actions: tuple[int, ...]  # ego moves valid on its side and legal now
    rejected: dict[int, frozenset[int]]  # D as cell index -> action indexes
    budget: int  # turns left before the turn cap
    worlds: list[World]


def make_problem(
    grid: Grid,
    ego_walls: set[str],
    token: Cell,
    legal: set[str],
    rejected: Mapping[Cell, set[str]],
    known_walls: set[str],
    known_open: set[str],
    treasure_weights: Mapping[Cell, float],
    wall_chance: Mapping[str, float],
    budget: int,
    rng: random.Random,
    config: PlannerConfig,
) -> Problem:
    ego_next = grid.transitions(ego_walls)
    root = grid.index_of(token)
    valid = [a for a in range(5) if a == 0 or ego_next[root * 5 + a] != root]
    root_actions = tuple(a for a in valid if ACTIONS[a] in legal) or tuple(valid)
    worlds = sample_worlds(
        grid, ego_next, known_walls, known_open, treasure_weights, rng, config.worlds, config.wall_prior, wall_chance
    )
    rejected_index = {
        grid.index_of(cell): frozenset(ACTION_INDEX[a] for a in actions) for cell, actions in rejected.items()
    }
    return Problem(grid, ego_next, root, root_actions, rejected_index, max(budget, 1), worlds)


class SearchTree:
    """Flat node store. Per node: cell, mover, depth, visits, log(visits), actions, untried actions.

    Per edge (node * 5 + action): visits, total value, the child after a successful move and the child
    after a blocked one (partner nodes only; ego moves are never blocked).
    """

    def __init__(self):
        self.cell: list[int] = []
        self.mover: list[int] = []
        self.depth: list[int] = []
        self.visits: list[int] = []
        self.logn: list[float] = []
        self.actions: list[tuple[int, ...]] = []
        self.untried: list[list[int]] = []
        self.child: list[int] = []
        self.child_blocked: list[int] = []
        self.edge_n: list[int] = []
        self.edge_w: list[float] = []

    def add(self, cell: int, mover: int, depth: int, actions: tuple[int, ...], rng: random.Random) -> int:
        node = len(self.cell)
        self.cell.append(cell)
        self.mover.append(mover)
        self.depth.append(depth)
        self.visits.append(0)
        self.logn.append(0.0)
        self.actions.append(actions)
        untried = list(actions)
        rng.shuffle(untried)
        self.untried.append(untried)
        self.child.extend((-1,) * 5)
        self.child_blocked.extend((-1,) * 5)
        self.edge_n.extend((0,) * 5)
        self.edge_w.extend((0.0,) * 5)
        return node

    def __len__(self) -> int:
        return len(self.cell)

    def edge_visits(self, node: int) -> dict[int, int]:
        """Visits per tried action at a node."""
        return {a: self.edge_n[node * 5 + a] for a in self.actions[node] if self.edge_n[node * 5 + a]}

    def mean_value(self, node: int, action: int) -> float:
        e = node * 5 + action
        return self.edge_w[e] / self.edge_n[e] if self.edge_n[e] else 0.0


class Planner:
    """Runs AISMCTS-F on a Problem; ``search`` returns the tree (root is node 0)."""

    def __init__(self, config: PlannerConfig | None = None):
        self.config = config or PlannerConfig()

    def search(self, problem: Problem, rng: random.Random) -> SearchTree:
        config = self.config
        grid, ego_next = problem.grid, problem.ego_next
        ego_options = [tuple(a for a in range(5) if a == 0 or ego_next[c * 5 + a] != c) for c in range(grid.cells)]
        partner_options = [
            tuple(a for a in range(5) if grid.target[c * 5 + a] >= 0 and a not in problem.rejected.get(c, ()))
            for c in range(grid.cells)
        ]
        optima = [self._optimum(problem, world) for world in problem.worlds]
        tree = SearchTree()
        tree.add(problem.root_cell, EGO, 0, problem.root_actions, rng)
        for iteration in range(config.iterations):
            index = iteration % len(problem.worlds)
            self._iterate(tree, problem, problem.worlds[index], ego_options, partner_options, optima[index], rng)
        return tree

    def _optimum(self, problem: Problem, world: World) -> int:
        """The world's best cost from the root: the baseline a return's regret is measured against."""
        best = world.cost[EGO][problem.root_cell]
        return best if best <= problem.budget else problem.budget + FAIL_COST

    def _iterate(self, tree, problem, world, ego_options, partner_options, optimum, rng) -> None:
        c = self.config.exploration
        max_depth = self.config.max_depth
        ego_next, partner_next, treasure = problem.ego_next, world.partner_next, world.treasure
        edge_n, edge_w, logn = tree.edge_n, tree.edge_w, tree.logn
        node, cell, mover = 0, problem.root_cell, EGO
        path = []
        moves = hits = 0
        found = False
        while tree.depth[node] < max_depth:
            untried = tree.untried[node]
            base = node * 5
            if untried:
                action = untried.pop()
            else:
                action, best = -1, -1.0
                ln = logn[node]
                for a in tree.actions[node]:
                    n = edge_n[base + a]
                    score = edge_w[base + a] / n + c * math.sqrt(ln / n)
                    if score > best:
                        action, best = a, score
                if action < 0:
                    break  # no action available here (cannot happen on a real board)
            if mover == EGO:
                after = ego_next[cell * 5 + action]
                blocked = False
            else:
                after = partner_next[cell * 5 + action]
                blocked = action != 0 and after == cell
            moves += 1
            hits += blocked
            path.append(base + action)
            children = tree.child_blocked if blocked else tree.child
            child = children[base + action]
            created = child < 0
            if created:
                next_mover = 1 - mover
                options = ego_options[after] if next_mover == EGO else partner_options[after]
                child = tree.add(after, next_mover, tree.depth[node] + 1, options, rng)
                children[base + action] = child
            node, cell, mover = child, after, 1 - mover
            if after == treasure:
                found = True
                break
            if created:
                break
        value = self._value(problem, world, cell, mover, moves, hits, found, optimum, ego_options, partner_options, rng)
        visits = tree.visits
        for edge in path:
            edge_n[edge] += 1
            edge_w[edge] += value
            parent = edge // 5
            visits[parent] += 1
            logn[parent] = math.log(visits[parent])

    def _value(
        self, problem, world, cell, mover, moves, hits, found, optimum, ego_options, partner_options, rng
    ) -> float:
        budget = problem.budget
        if found:
            cost = moves + HIT_COST * hits
        elif self.config.rollout == "table":
            to_go = world.cost[mover][cell]
            cost = moves + to_go + HIT_COST * hits if moves + to_go <= budget else budget + FAIL_COST
        else:
            cost = self._random_rollout(problem, world, cell, mover, moves, hits, ego_options, partner_options, rng)
        value = 1.0 - (cost - optimum) / self.config.value_scale
        return min(1.0, max(0.0, value))

    def _random_rollout(self, problem, world, cell, mover, moves, hits, ego_options, partner_options, rng) -> int:
        limit = min(problem.budget, moves + self.config.rollout_depth)
        ego_next, partner_next, treasure = problem.ego_next, world.partner_next, world.treasure
        while moves < limit:
            if mover == EGO:
                cell = ego_next[cell * 5 + rng.choice(ego_options[cell])]
            else:
                action = rng.choice(partner_options[cell])
                after = partner_next[cell * 5 + action]
                hits += action != 0 and after == cell
                cell = after
            moves += 1
            mover = 1 - mover
            if cell == treasure:
                return moves + HIT_COST * hits
        return problem.budget + FAIL_COST
