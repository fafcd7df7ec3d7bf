"""AISMCTS-F mechanics on tiny mazes: cost-to-go tables, the search tree, UCB, Explore and SelectBestAction."""

from __future__ import annotations

import random

import pytest

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.planner import Planner, PlannerConfig, Problem, SearchTree, make_problem
from agents_app.agents.gnomes.select import partner_suggestion, select_best_action
from agents_app.agents.gnomes.worlds import EGO, PARTNER, UNREACHABLE, Grid, cost_to_go, sample_worlds
from gameplay.engines.gnomes.maze import ACTIONS, Maze

STAY, RIGHT, UP, LEFT, DOWN = range(5)
ALL_WALLS_3 = set(Maze(3, ()).interior_walls())


def tiny_problem(
    *,
    treasure=(1, 0),
    token=(0, 0),
    ego_walls=(),
    partner_walls=(),
    rejected=None,
    iterations_seed=0,
    config=None,
) -> Problem:
    """A 3x3 board whose partner side is fully known (every interior edge is a known wall or known open)."""
    grid = Grid(3)
    partner_walls = set(partner_walls)
    return make_problem(
        grid,
        ego_walls=set(ego_walls),
        token=token,
        legal=set(ACTIONS),
        rejected=rejected or {},
        known_walls=partner_walls,
        known_open=ALL_WALLS_3 - partner_walls,
        treasure_weights={treasure: 1.0},
        wall_chance={},
        budget=200,
        rng=random.Random(iterations_seed),
        config=config or PlannerConfig(iterations=200, worlds=4),
    )


# --- cost-to-go ----------------------------------------------------------------------------------------------


def test_cost_to_go_counts_alternating_turns():
    grid = Grid(3)
    open_side = grid.transitions(())
    walled_side = grid.transitions(ALL_WALLS_3)
    treasure = grid.index_of((2, 2))
    cost = cost_to_go(grid, open_side, open_side, treasure)
    assert cost[EGO][grid.index_of((0, 0))] == 4
    assert cost[EGO][treasure] == cost[PARTNER][treasure] == 0
    # The ego cannot move at all: it stays on each of its turns while the partner walks the 4 steps.
    cost = cost_to_go(grid, walled_side, open_side, treasure)
    assert cost[EGO][grid.index_of((0, 0))] == 8
    assert cost[PARTNER][grid.index_of((0, 0))] == 7
    # Nobody can move: the treasure is out of reach.
    cost = cost_to_go(grid, walled_side, walled_side, treasure)
    assert cost[EGO][grid.index_of((0, 0))] == UNREACHABLE


def test_sampled_worlds_keep_known_edges_and_draw_the_treasure_from_the_belief():
    grid = Grid(3)
    walls, opened = {"0,0:right"}, {"0,0:down"}
    worlds = sample_worlds(grid, grid.transitions(()), walls, opened, {(2, 2): 1.0, (2, 1): 0.0}, random.Random(1), 20)
    origin = grid.index_of((0, 0))
    for world in worlds:
        assert world.partner_next[origin * 5 + RIGHT] == origin  # known wall: blocked in every world
        assert world.partner_next[origin * 5 + DOWN] == grid.index_of((0, 1))  # known open
        assert world.treasure == grid.index_of((2, 2))


def test_wall_chance_overrides_the_prior_per_edge():
    grid = Grid(3)
    worlds = sample_worlds(
        grid, grid.transitions(()), set(), set(), {(2, 2): 1.0}, random.Random(2), 30, 0.0, {"1,1:right": 1.0}
    )
    centre = grid.index_of((1, 1))
    assert all(w.partner_next[centre * 5 + RIGHT] == centre for w in worlds)
    assert all(w.partner_next[centre * 5 + LEFT] != centre for w in worlds)  # prior 0: always open


# --- the tree ------------------------------------------------------------------------------------------------


def test_every_iteration_expands_one_node_and_visits_add_up():
    problem = tiny_problem(treasure=(2, 2))
    config = PlannerConfig(iterations=3, worlds=4)
    tree = Planner(config).search(problem, random.Random(0))
    assert len(tree) == 1 + 3  # the root plus one expansion per iteration
    assert sorted(tree.edge_visits(0).values()) == [1, 1, 1]  # three different untried root actions
    tree = Planner(PlannerConfig(iterations=300, worlds=4)).search(problem, random.Random(0))
    assert tree.visits[0] == 300
    assert sum(tree.edge_visits(0).values()) == 300
    for node in range(len(tree)):  # a node's visits are the sum of its edges' visits
        assert tree.visits[node] == sum(tree.edge_visits(node).values())


def test_ucb_concentrates_on_the_move_that_reaches_the_treasure():
    problem = tiny_problem(treasure=(1, 0))
    tree = Planner(PlannerConfig(iterations=300, worlds=4)).search(problem, random.Random(3))
    visits = tree.edge_visits(0)
    assert max(visits, key=visits.get) == RIGHT
    assert visits[RIGHT] > 2 * max(n for a, n in visits.items() if a != RIGHT)
    assert tree.mean_value(0, RIGHT) == pytest.approx(1.0)  # one move, no regret


def test_partner_help_is_planned_when_the_ego_side_is_walled():
    # The ego cannot move right from (0,0); the partner can. Best: ego stays, partner moves right.
    problem = tiny_problem(treasure=(1, 0), ego_walls={"0,0:right"})
    tree = Planner(PlannerConfig(iterations=400, worlds=4)).search(problem, random.Random(4))
    assert RIGHT not in tree.actions[0]  # Explore at ego nodes: only moves open on the ego's side
    selection = select_best_action(tree, problem, Flag.NONE, random.Random(0))
    assert selection.action == "stay"
    assert selection.output_flag == Flag.RIGHT


def test_explore_at_partner_nodes_leaves_out_rejected_actions():
    rejected = {(x, y): {"right", "down"} for x in range(3) for y in range(3)}
    problem = tiny_problem(treasure=(2, 2), rejected=rejected)
    tree = Planner(PlannerConfig(iterations=300, worlds=4)).search(problem, random.Random(5))
    partner_nodes = [n for n in range(len(tree)) if tree.mover[n] == PARTNER]
    assert partner_nodes
    for node in partner_nodes:
        assert RIGHT not in tree.actions[node] and DOWN not in tree.actions[node]
        assert STAY in tree.actions[node]


def test_depth_limit_bounds_the_tree():
    problem = tiny_problem(treasure=(2, 2))
    tree = Planner(PlannerConfig(iterations=500, worlds=4, max_depth=3)).search(problem, random.Random(6))
    assert max(tree.depth) <= 3


def test_random_rollouts_also_find_the_adjacent_treasure():
    config = PlannerConfig(iterations=300, worlds=4, rollout="random", rollout_depth=10)
    problem = tiny_problem(treasure=(1, 0), config=config)
    tree = Planner(config).search(problem, random.Random(7))
    visits = tree.edge_visits(0)
    assert max(visits, key=visits.get) == RIGHT


def test_search_is_reproducible_for_a_seed():
    problem = tiny_problem(treasure=(2, 1))
    first = Planner(PlannerConfig(iterations=200, worlds=4)).search(problem, random.Random(8))
    second = Planner(PlannerConfig(iterations=200, worlds=4)).search(problem, random.Random(8))
    assert first.edge_n == second.edge_n and first.cell == second.cell


def test_bad_configs_are_refused():
    with pytest.raises(ValueError):
        PlannerConfig(rollout="greedy")
    with pytest.raises(ValueError):
        PlannerConfig(iterations=0)


# --- SelectBestAction on hand-built trees ------------------------------------------------------------------


def hand_tree(problem: Problem, root_visits: dict[int, int], partner_visits: dict[int, int]) -> SearchTree:
    """A root with the given edge visits; the RIGHT child's partner edges get ``partner_visits``."""
    rng = random.Random(0)
    tree = SearchTree()
    tree.add(problem.root_cell, EGO, 0, tuple(root_visits), rng)
    for action, n in root_visits.items():
        tree.edge_n[action] = n
        tree.edge_w[action] = n * 0.5
    right_cell = problem.ego_next[problem.root_cell * 5 + RIGHT]
    child = tree.add(right_cell, PARTNER, 1, tuple(partner_visits), rng)
    tree.child[RIGHT] = child
    for action, n in partner_visits.items():
        tree.edge_n[child * 5 + action] = n
    return tree


def test_stage_b_breaks_a_tie_with_the_input_flag():
    problem = tiny_problem(treasure=(2, 2))
    tree = hand_tree(problem, {STAY: 10, RIGHT: 10, DOWN: 4}, {STAY: 1})
    for seed in range(20):
        assert select_best_action(tree, problem, Flag.RIGHT, random.Random(seed)).action == "right"
        assert select_best_action(tree, problem, Flag.STAY, random.Random(seed)).action == "stay"
    # An input flag outside the tie does not override visit counts; without a flag the rng decides.
    chosen = {select_best_action(tree, problem, Flag.DOWN, random.Random(seed)).action for seed in range(20)}
    assert chosen == {"stay", "right"}
    # No tie: the most visited child wins whatever the flag says.
    tree = hand_tree(problem, {STAY: 9, RIGHT: 10, DOWN: 4}, {STAY: 1})
    assert select_best_action(tree, problem, Flag.STAY, random.Random(0)).action == "right"


def test_stage_c_prunes_the_output_flag_with_the_dictionary():
    problem = tiny_problem(treasure=(2, 2))
    tree = hand_tree(problem, {STAY: 1, RIGHT: 10}, {DOWN: 20, LEFT: 5, STAY: 3})
    assert select_best_action(tree, problem, Flag.NONE, random.Random(0)).output_flag == Flag.DOWN
    grid = problem.grid
    problem.rejected = {grid.index_of((1, 0)): frozenset({DOWN})}
    selection = select_best_action(tree, problem, Flag.NONE, random.Random(0))
    assert selection.action == "right"
    assert selection.output_flag == Flag.LEFT
    assert partner_suggestion(tree, problem, STAY) is None  # no statistics under that child


def test_stage_a_inquiry_and_blocked_requests():
    problem = tiny_problem(treasure=(2, 2), ego_walls={"0,0:down"})
    tree = hand_tree(problem, {STAY: 1, RIGHT: 10}, {DOWN: 20})
    inquiry = select_best_action(tree, problem, Flag.INQUIRY, random.Random(0))
    assert inquiry.output_flag == Flag.INQUIRY and inquiry.suggestion == Flag.DOWN
    blocked = select_best_action(tree, problem, Flag.DOWN, random.Random(0))
    assert blocked.output_flag == Flag.REJECT and blocked.rejected_request == "down"
    assert blocked.action == "right"
    # A request the ego CAN make is no rejection; it only breaks ties (there is none here).
    fine = select_best_action(tree, problem, Flag.RIGHT, random.Random(0))
    assert fine.output_flag == Flag.DOWN and fine.rejected_request is None
    # REJECT produces no output flag of its own: the planner's suggestion goes out as usual.
    assert select_best_action(tree, problem, Flag.REJECT, random.Random(0)).output_flag == Flag.DOWN
