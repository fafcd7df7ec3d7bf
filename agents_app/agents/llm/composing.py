"""Choosing among many actions part by part (``GameSpec.composed_actions``, issue 42).

A Fruit Trading basket allows more than a hundred offers, a Hive position late in a game a hundred moves and more:
listed whole, with a label each, they do not fit a small model's context, and a long list is hard to choose from
anyway. Where the game gives each action its parts (an offer is propose, then what you give, then what you get),
the agent asks for one part at a time: each step lists only the legal continuations of what is chosen so far, and
under a JSON schema the reply can only be one of them. A step that leaves a single continuation is taken without
asking; the step that completes an open-ended action asks for its text as well.

A step is an ordinary ``TurnView`` whose actions are the step's options (their id and label are the part itself),
so prompts, fitting, reply formats, corrections and explanations work on it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agents_app.agents.base import TurnView
from gameplay.engines.api import Action, TextAction


def applies(view: TurnView, max_listed: int) -> bool:
    """Whether this decision is made part by part: more actions than ``max_listed`` (0: never), all with parts."""
    options = (*view.legal_actions, *view.text_actions)
    return 0 < max_listed < len(options) and all(o.parts for o in options)


@dataclass(frozen=True)
class Step:
    view: TurnView  # the options after ``chosen``, as the view's actions
    chosen: tuple[str, ...]
    completes: dict  # option -> the whole action (Action or TextAction) it completes; other options lead on

    def options(self) -> list[str]:
        return [a.id for a in self.view.legal_actions] + [t.id for t in self.view.text_actions]


def step(view: TurnView, chosen: tuple[str, ...] = ()) -> Step:
    """The options that continue ``chosen``, in the order the game lists its actions."""
    n = len(chosen)
    leading: dict[str, Action] = {}
    texts: dict[str, TextAction] = {}
    completes: dict = {}
    for action in (*view.legal_actions, *view.text_actions):
        if len(action.parts) <= n or action.parts[:n] != chosen:
            continue
        part = action.parts[n]
        if len(action.parts) > n + 1:
            leading.setdefault(part, Action(part, part))
        elif isinstance(action, TextAction):
            completes[part] = action
            texts[part] = TextAction(part, part, action.hint, action.max_length)
        else:
            completes[part] = action
            leading[part] = Action(part, part)
    total = len(view.legal_actions) + len(view.text_actions)
    shown = replace(
        view, legal_actions=tuple(leading.values()), text_actions=tuple(texts.values()), next_actors={},
        extra={**view.extra, "composing": {"chosen": list(chosen), "actions": total}},
    )
    return Step(shown, chosen, completes)


def introduction(view: TurnView) -> str | None:
    """What a step's prompt says before its options (None outside a composed decision)."""
    composing = view.extra.get("composing")
    if not composing:
        return None
    head = (f"You have {composing['actions']} possible actions, too many to list at once, so you choose yours in "
            "parts, one part per reply.")
    chosen = composing["chosen"]
    if not chosen:
        return f"{head} Choose the first part."
    return f"{head} Chosen so far: {' → '.join(chosen)}. Choose the next part."
