"""Information-set Monte Carlo tree search on the engine contract alone.

Every iteration draws a world from the searching seat's information set (``sample_information_state`` of the sample
the platform handed over: by the engine's conformance, a sample of a sample is a sample of the seat's information
set, so the search never needs the match's own state), walks the tree in it choosing moves by UCB, adds one node,
then finishes the world with random moves (or stops and asks the engine's evaluation, for games that declare one)
and credits every seat on the way with its score. For a perfect-information game without chance every world is the
position itself, and this is plain UCT.

The search knows no game: it reads current seats, legal and text actions, ``is_terminal``, ``scores`` and
``evaluation`` through the contract, so a new game with a sampler is searchable as it is.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from gameplay.engines.api import EngineError

from .tree import Joint, Move, Node

# UCB's constant for rewards in [0, 1]. Measured head to head, 200 simulations against 15 (then levels 3 and 2), seats
# alternating: with 0.25 instead of 0.7 level 3 scored 0.78 instead of 0.53 in Santorini (60 matches), 0.79 instead
# of 0.73 in Hive (60), 0.88 instead of 0.82 in Air, Land & Sea (60) and 0.95 instead of 0.86 in Arctic Scavengers
# (40): the evaluations' values differ by little between moves, and a wide constant spread a few hundred simulations
# almost evenly over the root's moves.
EXPLORATION = 0.25


@dataclass(frozen=True)
class Budget:
    """How much a search may do: ``simulations`` iterations, stopped early after ``seconds``; a random playout
    goes at most ``rollout_moves`` moves before the evaluation (or the even split) stands in for the end."""

    simulations: int
    seconds: float
    rollout_moves: int = 200
    stop_when_settled: bool = True  # stop once the simulations left cannot change the move (the same move, sooner)


@dataclass(frozen=True)
class SearchResult:
    move: Move
    simulations: int
    seconds: float
    visits: dict  # the searching seat's moves at the root -> visits
    value: float  # the chosen move's mean score for the seat
    settled: bool = False  # stopped before its count because the simulations left could not change the move


def moves_of(world, seat: int) -> list[Move]:
    """The seat's moves in a world: its structured actions, and its text actions that come with an example (a text
    the engine accepts: talk in a game of hidden roles); a text action with no example cannot be searched."""
    moves: list[Move] = [(action_id, None) for action_id in world.legal_action_ids(seat)]
    moves += [(spec.id, spec.example) for spec in world.text_actions(seat) if spec.example]
    return moves


def _play(world, joint: Joint) -> None:
    """Apply the seats' moves in order; a move an earlier one made illegal (a concurrent market) is dropped."""
    for seat, (action_id, text) in joint:
        if world.is_terminal() or seat not in world.current_seats():
            continue
        try:
            world.apply_action(seat, action_id, text)
        except EngineError:  # refused after another seat's move changed the market
            continue


def _outcome(world, rng: random.Random, budget: Budget, evaluates: bool) -> list[float]:
    """The scores a world ends with: played out at random, or estimated by the engine's evaluation."""
    if not evaluates:
        for _ in range(budget.rollout_moves):
            if world.is_terminal() or world.awaiting_verdict():
                break
            seat = rng.choice(world.current_seats())
            actions = world.legal_action_ids(seat)
            if actions:  # taken straight from the legal actions: no need for the engine to list them again
                world.apply_sampled_action(seat, rng.choice(actions))
                continue
            moves = moves_of(world, seat)
            if not moves:
                break
            _play(world, ((seat, rng.choice(moves)),))
    return world.scores() if world.is_terminal() else world.evaluation()


def _settled(tree: Node, seat: int, left: int) -> bool:
    """Whether the most visited of the seat's moves at the root stays the most visited whatever the ``left``
    simulations do: each adds one visit to one of them, so a lead of more than ``left`` visits cannot be caught."""
    visits = sorted((stats.visits for stats in tree.move_stats(seat).values()), reverse=True)
    if not visits:
        return False
    return visits[0] - (visits[1] if len(visits) > 1 else 0) > left


def search(root, seat: int, budget: Budget, rng: random.Random, *, resample: bool,
           now=time.perf_counter) -> SearchResult:
    """Search for ``seat``'s move from ``root`` (a sampled state, never a match's own). ``resample``: draw a new
    world from the seat's information set every iteration (hidden information or chance); otherwise every
    iteration starts from a copy of ``root``."""
    started = now()
    evaluates = root.game.spec.has_evaluation
    tree = Node()
    root_moves = moves_of(root, seat)
    if not root_moves:
        raise ValueError("the seat has no move to search")
    simulations = 0
    settled = budget.stop_when_settled and len(root_moves) == 1  # the only move: nothing to search
    while not settled and simulations < budget.simulations and (simulations == 0 or now() - started < budget.seconds):
        world = root.sample_information_state(seat, rng) if resample else root.clone()
        node, path = tree, []
        expanded = False
        while not expanded and not world.is_terminal() and not world.awaiting_verdict():
            joint = []
            for deciding in world.current_seats():
                moves = moves_of(world, deciding)
                if moves:
                    move, untried = node.select(deciding, moves, rng, EXPLORATION)
                    joint.append((deciding, move))
                    expanded = expanded or untried
            if not joint:
                break
            joint_key: Joint = tuple(joint)
            path.append((node, joint_key))
            _play(world, joint_key)
            node = node.child(joint_key)
        rewards = _outcome(world, rng, budget, evaluates)
        for visited, joint_key in path:
            visited.update(joint_key, rewards)
        simulations += 1
        # Stopping here plays the move the whole count would have played (its time limit aside), sooner.
        settled = budget.stop_when_settled and _settled(tree, seat, budget.simulations - simulations)
    move = tree.most_visited(seat, root_moves)
    stats = tree.move_stats(seat)
    return SearchResult(
        move=move,
        simulations=simulations,
        seconds=now() - started,
        visits={m: s.visits for m, s in stats.items()},
        value=stats[move].mean() if move in stats else 0.0,
        settled=settled,
    )
