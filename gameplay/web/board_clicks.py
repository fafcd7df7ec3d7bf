"""Generic click-to-act for board games, driven by each Action's ``path`` of locations.

A person clicks locations one after another (e.g. a worker, then its destination).
The clicks so far form a prefix; a location is clickable when some legal action's
path continues the prefix with it. When the continuation completes exactly one
action, clicking it submits that action; otherwise it extends the selection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gameplay.engines.api import Action


@dataclass(frozen=True)
class Click:
    location: str
    action: Action | None  # set: clicking submits this action; None: clicking selects the location

    @property
    def submits(self) -> bool:
        return self.action is not None


def valid_selection(actions: Iterable[Action], selection: Sequence[str]) -> tuple[str, ...]:
    """The selection if some action still continues it, else the empty selection."""
    selection = tuple(selection)
    if any(a.path[: len(selection)] == selection and len(a.path) > len(selection) for a in actions):
        return selection
    return ()


def clicks_for(actions: Sequence[Action], selection: Sequence[str]) -> dict[str, Click]:
    selection = valid_selection(actions, selection)
    depth = len(selection)
    continuing: dict[str, list[Action]] = {}
    for action in actions:
        if len(action.path) > depth and action.path[:depth] == selection:
            continuing.setdefault(action.path[depth], []).append(action)
    clicks = {}
    for location, options in continuing.items():
        done = [a for a in options if len(a.path) == depth + 1]
        clicks[location] = Click(location, done[0] if len(options) == 1 and done else None)
    return clicks
