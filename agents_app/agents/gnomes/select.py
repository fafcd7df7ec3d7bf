"""SelectBestAction (seeds/003 §4.1): the ego's move and output flag from a finished search tree.

Stage (a) reads the input flag: INQUIRY is answered with INQUIRY; REJECT needs nothing here (the
rejection is already in D, rebuilt from the chat); a requested move the ego's own side blocks is answered
with REJECT, which tells the partner about a wall it cannot see.
Stage (b) picks among the most-visited root children; ties go to the input flag's action when it is one of
them, otherwise to the seeded rng.
Stage (c), unless the output flag is already INQUIRY or REJECT: the partner's most-visited action at the
chosen child, leaving out the actions in D at that child's cell, becomes the output flag.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gameplay.engines.gnomes.maze import ACTIONS

from .flags import Flag
from .planner import Problem, SearchTree


@dataclass(frozen=True)
class Selection:
    action: str
    output_flag: Flag  # INQUIRY, REJECT, a move flag, or NONE
    # The partner move the tree favours after the ego's action (stage (c)), computed in every case so an
    # answer to a question can mention it; None when the tree has no partner statistics there.
    suggestion: Flag | None
    rejected_request: str | None = None  # the requested action the ego cannot make (stage (a))


def select_best_action(tree: SearchTree, problem: Problem, input_flag: Flag, rng: random.Random) -> Selection:
    output = Flag.NONE
    rejected_request = None
    # Stage (a).
    if input_flag == Flag.INQUIRY:
        output = Flag.INQUIRY
    elif input_flag.action is not None and not _ego_can(problem, input_flag.action):
        output = Flag.REJECT
        rejected_request = input_flag.action
    # Stage (b).
    action = _most_visited_root_action(tree, problem, input_flag, rng)
    # Stage (c).
    suggestion = partner_suggestion(tree, problem, action)
    if output == Flag.NONE and suggestion is not None:
        output = suggestion
    return Selection(ACTIONS[action], output, suggestion, rejected_request)


def _ego_can(problem: Problem, action: str) -> bool:
    index = ACTIONS.index(action)
    root = problem.root_cell
    return index == 0 or problem.ego_next[root * 5 + index] != root


def _most_visited_root_action(tree: SearchTree, problem: Problem, input_flag: Flag, rng: random.Random) -> int:
    visits = tree.edge_visits(0)
    if not visits:  # no iteration ran: any valid root action will do
        return problem.root_actions[0] if 0 not in problem.root_actions else 0
    top = max(visits.values())
    tied = sorted(a for a, n in visits.items() if n == top)
    if len(tied) > 1 and input_flag.action is not None and ACTIONS.index(input_flag.action) in tied:
        return ACTIONS.index(input_flag.action)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def partner_suggestion(tree: SearchTree, problem: Problem, action: int) -> Flag | None:
    """The partner's most-visited action after the ego's ``action``, pruned by D at the resulting cell."""
    child = tree.child[action]  # the root is node 0, so its edges are 0..4
    if child < 0:
        return None
    pruned = problem.rejected.get(tree.cell[child], frozenset())
    visits = {a: n for a, n in tree.edge_visits(child).items() if a not in pruned}
    if not visits:
        return None
    best = max(visits.values())
    # Ties: the lowest action index (stay first), so the choice never depends on dict order.
    return Flag.of_action(ACTIONS[min(a for a, n in visits.items() if n == best)])
