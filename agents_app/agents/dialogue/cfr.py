"""Solving a dialogue tree with open_spiel: CFR's average policy, its NashConv and the seed's "CFR gain".

The tree goes to open_spiel as EFG text; open_spiel's CFR solves it and open_spiel's exploitability and
expected-value code measure the result. This module only maps between the tree and open_spiel's game:
the two are walked side by side (open_spiel's legal actions of an EFG node are the node's actions in order).

CFR gain (seed §4): both seats play the uninformative instruction ("any") everywhere; a seat's gain is how much its
expected payoff rises when it alone switches to the CFR policy. NashConv: the sum over seats of what a best
response to the CFR profile gains.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from gameplay.engines.dialogue import ANY

from .efg import to_efg
from .policy import turn_key
from .tree import Chance, Decision, Node, Terminal


@dataclass
class Solution:
    by_infostate: dict  # tree infoset key -> {action: probability}
    by_turn: dict  # "seat:message_index" -> {action: probability}, reach-weighted
    nash_conv: float
    cfr_gain: dict | None  # {"seats": [g0, g1], "mean": g} when the actions include ANY
    values: list  # each seat's expected payoff under the CFR profile
    iterations: int


def load(root: Node) -> pyspiel.Game:
    return pyspiel.load_efg_game(to_efg(root))


def solve(root: Node, iterations: int) -> Solution:
    game = load(root)
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    by_infostate = infostate_policy(root, game, average)
    start = game.new_initial_state()
    values = [float(v) for v in expected_game_score.policy_value(start, [average, average])]
    return Solution(
        by_infostate=by_infostate,
        by_turn=reach_weighted_by_turn(root, by_infostate),
        nash_conv=float(exploitability.nash_conv(game, average)),
        cfr_gain=cfr_gain(game, average, root),
        values=values,
        iterations=iterations,
    )


def _pairs(root: Node, game: pyspiel.Game):
    """(tree node, open_spiel state) for every decision node, walking both trees together."""
    stack = [(root, game.new_initial_state())]
    while stack:
        node, state = stack.pop()
        if isinstance(node, Terminal):
            continue
        if isinstance(node, Chance):
            outcomes = [a for a, _ in state.chance_outcomes()]
            children = [child for _, _, child in node.outcomes]
        else:
            yield node, state
            outcomes = state.legal_actions()
            children = node.children
        if len(outcomes) != len(children):
            raise AssertionError("the EFG game and the tree differ")
        for action, child in zip(outcomes, children, strict=True):
            stack.append((child, state.child(action)))


def infostate_policy(root: Node, game: pyspiel.Game, policy) -> dict:
    """The policy at each of the tree's information states, keyed by the tree's infoset key and action name."""
    table = {}
    for node, state in _pairs(root, game):
        if node.infoset in table:
            continue
        probs = policy.action_probabilities(state)
        pairs = zip(state.legal_actions(), node.actions, strict=True)
        table[node.infoset] = {name: float(probs.get(a, 0.0)) for a, name in pairs}
    return table


def reach_weighted_by_turn(root: Node, by_infostate: dict) -> dict:
    """For each seat and message index, the average of the policies at that seat's decisions with that index,
    each weighted by the probability of reaching it when both seats follow ``by_infostate`` (a plain average where
    nothing is reached)."""
    weighted: dict = defaultdict(lambda: defaultdict(float))
    totals: dict = defaultdict(float)
    plain: dict = defaultdict(lambda: defaultdict(float))
    counts: dict = defaultdict(int)
    stack = [(root, 1.0)]
    while stack:
        node, reach = stack.pop()
        if isinstance(node, Chance):
            stack.extend((child, reach * prob) for _, prob, child in node.outcomes)
        elif isinstance(node, Decision):
            dist = by_infostate[node.infoset]
            key = turn_key(node.seat, node.message_index)
            totals[key] += reach
            counts[key] += 1
            for action in node.actions:
                weighted[key][action] += reach * dist[action]
                plain[key][action] += dist[action]
            pairs = zip(node.actions, node.children, strict=True)
            stack.extend((child, reach * dist[action]) for action, child in pairs)
    result = {}
    for key, count in counts.items():
        if totals[key] > 0:
            result[key] = {a: p / totals[key] for a, p in weighted[key].items()}
        else:
            result[key] = {a: p / count for a, p in plain[key].items()}
    return result


def fixed_policy(root: Node, game: pyspiel.Game, instruction: str) -> policy_lib.TabularPolicy:
    """Every seat picks ``instruction`` at every decision."""
    tabular = policy_lib.TabularPolicy(game)
    for node, state in _pairs(root, game):
        index = node.actions.index(instruction)
        row = tabular.policy_for_key(state.information_state_string())
        row[:] = 0.0
        row[index] = 1.0
    return tabular


def cfr_gain(game: pyspiel.Game, solved, root: Node) -> dict | None:
    actions = {a for node, _ in _pairs(root, game) for a in node.actions}
    if ANY not in actions:
        return None
    baseline = fixed_policy(root, game, ANY)
    start = game.new_initial_state()
    before = expected_game_score.policy_value(start, [baseline, baseline])
    gains = []
    for seat in range(2):
        profile = [baseline, baseline]
        profile[seat] = solved
        after = expected_game_score.policy_value(start, profile)
        gains.append(float(after[seat] - before[seat]))
    return {"seats": gains, "mean": sum(gains) / 2, "baseline": [float(v) for v in before]}
