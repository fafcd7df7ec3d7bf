"""Which agents can play a seat, without the match layer importing the agents app.

The agents app registers a provider when Django starts (``AgentsAppConfig.ready``); gameplay, studies and
forms ask this module. Until a provider is registered no agent exists, so a match layer used on its own
simply offers people only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class AgentProvider:
    exists: Callable[[str], bool]
    choices: Callable[..., list[tuple[str, str]]]  # (name, description), of the agents playing game_id if given
    plays: Callable[[str, str], bool]  # (name, game_id): the agent exists and knows how to play that game


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


def agent_choices(game_id: str | None = None) -> list[tuple[str, str]]:
    """(name, description) of every agent, or of those that play ``game_id``."""
    seen, result = set(), []
    for provider in _providers:
        for name, description in provider.choices(game_id):
            if name not in seen:
                seen.add(name)
                result.append((name, description))
    return result
