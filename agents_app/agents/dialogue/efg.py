"""A solver tree written as EFG text (Gambit's extensive-form format), which open_spiel loads as a game
(``pyspiel.load_efg_game``): the tree is handed to open_spiel's own solvers in the format they already read.

Seat s is EFG player s + 1. Each seat's information states get their own numbers (in first-seen order); a node's
information state name is the tree's key, so open_spiel's information state strings carry it. Every chance node is
its own chance information state and every leaf its own outcome.
"""

from __future__ import annotations

from .tree import Chance, Decision, Node, Terminal


def _quoted(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(value: float) -> str:
    return repr(float(value))


def to_efg(root: Node, title: str = "dialogue") -> str:
    """The EFG text of the tree rooted at ``root``."""
    lines = [f"EFG 2 R {_quoted(title)} {{ \"Player 1\" \"Player 2\" }}", '""', ""]
    infosets: list[dict] = [{}, {}]  # per seat: key -> (number, actions)
    counters = {"chance": 0, "outcome": 0}

    def emit(node: Node) -> None:
        # An explicit stack: depth is small, but a wide tree is written without recursion limits either way.
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, Terminal):
                counters["outcome"] += 1
                payoffs = " ".join(_number(p) for p in current.payoffs)
                lines.append(f't "" {counters["outcome"]} {_quoted(current.label)} {{ {payoffs} }}')
            elif isinstance(current, Chance):
                counters["chance"] += 1
                pairs = " ".join(f"{_quoted(label)} {_number(prob)}" for label, prob, _ in current.outcomes)
                lines.append(f'c "" {counters["chance"]} "" {{ {pairs} }} 0')
                stack.extend(child for _, _, child in reversed(current.outcomes))
            elif isinstance(current, Decision):
                table = infosets[current.seat]
                known = table.get(current.infoset)
                if known is None:
                    known = table[current.infoset] = (len(table) + 1, list(current.actions))
                elif known[1] != list(current.actions):
                    raise ValueError(f"information state {current.infoset} has differing actions")
                actions = " ".join(_quoted(a) for a in current.actions)
                lines.append(
                    f'p "" {current.seat + 1} {known[0]} {_quoted(current.infoset)} {{ {actions} }} 0'
                )
                stack.extend(reversed(current.children))
            else:  # pragma: no cover - the tree has only these three kinds
                raise TypeError(f"not a tree node: {current!r}")

    emit(root)
    return "\n".join(lines) + "\n"
