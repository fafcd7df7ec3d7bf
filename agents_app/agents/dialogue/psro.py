"""PSRO over an instruction set (seed 004, §3.3 and Figure 3), with the model proposing new instructions.

Each iteration:
1. the meta-game: for every profile of instructions (seat 0 always uses a, seat 1 always uses b) the expected raw
   payoff of each seat in the generated tree; symmetrised (a's payoff against b, averaged over the two seatings)
   and solved with open_spiel's projected replicator dynamics;
2. the response oracle: the model proposes new instructions (a JSON list of single lowercase words); each new one
   is evaluated against the current equilibrium mixture (its own subtrees are generated) and the best is added.

The history keeps, per iteration, the instructions, the mixture over them and the instruction added.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import numpy as np
from open_spiel.python.algorithms import projected_replicator_dynamics

from .generation import CachedModel, Unreachable
from .tree import Chance, Decision, Node, Terminal, TreeBuilder

WORD = re.compile(r"^[a-z]+$")


def expected_payoffs(node: Node) -> tuple[float, float]:
    """Expected payoffs of a tree whose decisions each have one action (a fixed profile)."""
    if isinstance(node, Terminal):
        return node.payoffs
    if isinstance(node, Chance):
        total = [0.0, 0.0]
        for _, prob, child in node.outcomes:
            values = expected_payoffs(child)
            total = [total[i] + prob * values[i] for i in range(2)]
        return tuple(total)
    if isinstance(node, Decision) and len(node.children) == 1:
        return expected_payoffs(node.children[0])
    raise ValueError("expected a tree of one fixed profile")


META_ITERATIONS, META_STEP = 5000, 0.05  # 250 time units: settled on small tables, well under a second


def meta_solve(table: np.ndarray, iterations: int = META_ITERATIONS) -> list[float]:
    """The replicator-dynamics mixture of the symmetric game whose row payoff is ``table``."""
    strategies = projected_replicator_dynamics.projected_replicator_dynamics(
        [table, table.T], prd_iterations=iterations, prd_dt=META_STEP, prd_gamma=1e-6,
    )
    # Symmetric game, same start: both populations end alike; their mean removes rounding differences.
    mixture = (np.asarray(strategies[0]) + np.asarray(strategies[1])) / 2
    mixture = mixture / mixture.sum()
    return [float(p) for p in mixture]


def parse_candidates(text: str, known: list[str]) -> tuple[list[str], list[str]]:
    """(new instructions, problems) from the model's reply: a JSON list of single lowercase words."""
    problems = []
    try:
        data = json.loads((text or "").strip())
    except json.JSONDecodeError:
        start, end = (text or "").find("["), (text or "").rfind("]")
        try:
            data = json.loads(text[start : end + 1]) if 0 <= start < end else None
        except json.JSONDecodeError:
            data = None
    if isinstance(data, dict):  # JSON mode makes some servers wrap the list
        data = next((v for v in data.values() if isinstance(v, list)), None)
    if not isinstance(data, list):
        return [], ["the reply is not a JSON list"]
    found: list[str] = []
    for item in data:
        word = item.strip() if isinstance(item, str) else item
        if not isinstance(word, str) or not WORD.match(word):
            problems.append(f"{item!r} is not a single lowercase word")
        elif word in known or word in found:
            problems.append(f"{word!r} is not new")
        else:
            found.append(word)
    return found, problems


@dataclass
class PSROResult:
    instructions: list
    mixture: list
    table: list  # symmetrised payoffs, rows/columns in instruction order
    history: list = field(default_factory=list)


class PSRO:
    def __init__(self, builder: TreeBuilder, model: CachedModel, *, candidates: int = 3,
                 meta_iterations: int = META_ITERATIONS):
        self.builder = builder
        self.model = model
        self.candidates = candidates
        self.meta_iterations = meta_iterations
        self._values: dict = {}

    def value(self, a: str, b: str) -> tuple[float, float]:
        """Expected payoffs when seat 0 always uses ``a`` and seat 1 always uses ``b`` (generated once)."""
        if (a, b) not in self._values:
            tree = self.builder.build(lambda seat: [a] if seat == 0 else [b])
            self._values[(a, b)] = expected_payoffs(tree)
        return self._values[(a, b)]

    def symmetric(self, a: str, b: str) -> float:
        """The payoff of using ``a`` against ``b``, averaged over the two seatings."""
        return (self.value(a, b)[0] + self.value(b, a)[1]) / 2

    def table(self, pool: list[str]) -> np.ndarray:
        return np.array([[self.symmetric(a, b) for b in pool] for a in pool], dtype=float)

    def propose(self, pool: list[str], iteration: int) -> tuple[list[str], list[str]]:
        instruction_set = self.builder.instruction_set
        game = self.builder.game
        messages = [
            {"role": "system", "content": "You help design strategies for a dialogue game.\n\nRules:\n"
             + game.rules.summary.strip()},
            {"role": "user", "content": (
                f"A player's message is steered by one instruction from the set {instruction_set.name!r}, worded "
                f"like this: {instruction_set.template!r}. The instructions tried so far: {', '.join(pool)}. "
                f"Propose {self.candidates} new instructions that could win more. Reply with a JSON list of "
                "single lowercase words only, e.g. [\"word\", \"other\"]."
            )},
        ]
        try:
            reply = self.model.reply(messages, iteration, "psro-candidates")
        except Unreachable as err:
            self.model.stats.fallbacks.append(("candidates", err.reason))
            return [], [f"model unreachable: {err.reason}"]
        found, problems = parse_candidates(reply, pool)
        if problems:
            self.model.stats.fallbacks.append(("candidates", "; ".join(problems)))
        return found[: self.candidates], problems

    def run(self, iterations: int) -> PSROResult:
        pool = list(self.builder.instruction_set.instructions)
        history = []
        for iteration in range(iterations):
            table = self.table(pool)
            mixture = meta_solve(table, self.meta_iterations)
            candidates, problems = self.propose(pool, iteration)
            scored = []
            for candidate in candidates:
                against = sum(p * self.symmetric(candidate, b) for p, b in zip(mixture, pool, strict=True))
                scored.append((against, candidate))
            added = max(scored, key=lambda pair: pair[0])[1] if scored else None
            history.append({
                "iteration": iteration, "instructions": list(pool), "mixture": mixture, "added": added,
                "candidates": {c: v for v, c in scored}, "problems": problems,
            })
            if added:
                pool.append(added)
        table = self.table(pool)
        mixture = meta_solve(table, self.meta_iterations)
        history.append({"iteration": iterations, "instructions": list(pool), "mixture": mixture, "added": None,
                        "candidates": {}, "problems": []})
        return PSROResult(pool, mixture, table.tolist(), history)
