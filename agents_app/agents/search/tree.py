"""The search tree of information-set MCTS: nodes keyed by the moves that lead to them, statistics kept per seat.

A node is where some seats decide. Its statistics are kept per seat and per move, so that seats deciding at once (a
simultaneous decision: Sea Battle's orders, Pit's open market) each choose on their own, without seeing the others'
choices: decoupled selection. Moves are counted as *available* each time a visit finds them legal, since in a
sampled world a move may exist in one sample and not in another (the opponent's card is only in some samples'
hands): UCB then weighs a move by the visits in which it could have been chosen (Cowling, Powley and Whitehouse's
ISMCTS).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

# A move in the tree: a structured action id, or a text action taken with its example text (id, text).
Move = tuple[str, str | None]
# The moves of the seats deciding at one node, applied in seat order: ((seat, move), ...).
Joint = tuple[tuple[int, Move], ...]


@dataclass
class MoveStats:
    visits: int = 0
    total: float = 0.0
    available: int = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Node:
    # seat -> move -> statistics of that seat choosing that move here
    stats: dict[int, dict[Move, MoveStats]] = field(default_factory=dict)
    children: dict[Joint, Node] = field(default_factory=dict)

    def select(self, seat: int, moves: list[Move], rng: random.Random, exploration: float) -> tuple[Move, bool]:
        """The move ``seat`` tries here among ``moves`` (its legal moves in this sample): an untried one first, at
        random, else the best by UCB over availability. Returns the move and whether it was untried."""
        table = self.stats.setdefault(seat, {})
        for move in moves:
            table.setdefault(move, MoveStats()).available += 1
        untried = [move for move in moves if table[move].visits == 0]
        if untried:
            return rng.choice(untried), True
        best, best_value = moves[0], -math.inf
        for move in moves:
            stats = table[move]
            value = stats.mean() + exploration * math.sqrt(math.log(stats.available) / stats.visits)
            if value > best_value:
                best, best_value = move, value
        return best, False

    def update(self, joint: Joint, rewards: list[float]) -> None:
        for seat, move in joint:
            stats = self.stats[seat][move]
            stats.visits += 1
            stats.total += rewards[seat]

    def child(self, joint: Joint) -> Node:
        node = self.children.get(joint)
        if node is None:
            node = self.children[joint] = Node()
        return node

    def most_visited(self, seat: int, moves: list[Move]) -> Move:
        """The seat's move here with the most visits (ties: the better mean, then the first listed)."""
        table = self.stats.get(seat, {})
        return max(moves, key=lambda m: (table.get(m, MoveStats()).visits, table.get(m, MoveStats()).mean()))

    def move_stats(self, seat: int) -> dict[Move, MoveStats]:
        return self.stats.get(seat, {})
