"""Which agents can play a seat, without the match layer importing the agents app.

The agents app registers a provider when Django starts (``AgentsAppConfig.ready``); gameplay, studies and
forms ask this module. Until a provider is registered no agent exists, so a match layer used on its own
simply offers people only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AgentProvider:
    exists: Callable[[str], bool]
    choices: Callable[..., list[tuple[str, str]]]  # (name, description), of the agents playing game_id if given
    plays: Callable[[str, str], bool]  # (name, game_id): the agent exists and knows how to play that game
    # Why the agent cannot play as configured (its endpoint lacks what it needs, e.g. logprobs for RAP, or it was
    # measured slower than its decision deadline on the game, which ``allow_slow`` lets pass), or None.
    not_ready: Callable[..., str | None] = lambda name, game_id=None, allow_slow=False: None
    # Why the agent refuses a match of that game with these options (its policy was solved under others), or None.
    refuses: Callable[[str, str, Mapping[str, Any]], str | None] = lambda name, game_id, options: None
    # What people read for the agent when it has a label of its own ("Search, level 3"), or None. Cheap: no lookup of
    # stored configurations, since tables of matches ask it for every agent seat.
    label: Callable[[str], str | None] = lambda name: None


_providers: list[AgentProvider] = []


def register(provider: AgentProvider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def agent_exists(name: str) -> bool:
    return isinstance(name, str) and bool(name) and any(p.exists(name) for p in _providers)


def agent_plays(name: str, game_id: str) -> bool:
    """Whether agent ``name`` knows how to play ``game_id``: a match never starts with an agent that would only
    fall back to random moves (the random agent itself plays every game)."""
    return isinstance(name, str) and bool(name) and any(p.plays(name, game_id) for p in _providers)


def why_not_ready(name: str, game_id: str | None = None, *, allow_slow: bool = False) -> str | None:
    """Why agent ``name`` cannot play now (``game_id``: that game), as a sentence for the person choosing it, or
    None: the same preflight as tournaments and play_match run (a probe of the endpoint, for configurations that
    need a capability; whether the game's opening prompt fits a model with a known context; whether its decisions
    on the game were measured slower than its deadline, unless ``allow_slow``)."""
    for provider in _providers:
        if provider.exists(name):
            return provider.not_ready(name, game_id, allow_slow=allow_slow)
    return None


def why_refused(name: str, game_id: str, options: Mapping[str, Any]) -> str | None:
    """Why agent ``name`` refuses to play a ``game_id`` match with ``options`` (the game's, defaults filled in), as a
    sentence, or None: e.g. a solver-guided agent whose policy was solved under other options."""
    for provider in _providers:
        if provider.exists(name):
            return provider.refuses(name, game_id, options)
    return None


def agent_label(name: str) -> str:
    """What people read for agent ``name``: its label ("Search, level 3") where it has one, else the name itself.
    The name stays the value stored and submitted; this is only what is shown."""
    for provider in _providers:
        label = provider.label(name)
        if label:
            return label
    return name


def agent_choices(game_id: str | None = None) -> list[tuple[str, str]]:
    """(name, description) of every agent, or of those that play ``game_id``."""
    seen, result = set(), []
    for provider in _providers:
        for name, description in provider.choices(game_id):
            if name not in seen:
                seen.add(name)
                result.append((name, description))
    return result
