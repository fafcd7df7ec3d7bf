"""Registered agents by name. Agent configurations stored in the database build on these."""

from __future__ import annotations

from .base import Agent
from .boxer import BoxerAgent
from .gnomes.comm_agent import GnomesCommAgent
from .gnomes.mute_agent import GnomesMuteAgent
from .gnomes.partner import SimulatedPartner
from .random_agent import RandomAgent
from .search.agent import SEARCH_AGENTS

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (RandomAgent, GnomesCommAgent, GnomesMuteAgent, SimulatedPartner, BoxerAgent, *SEARCH_AGENTS)
}


class UnknownAgentError(LookupError):
    pass


def create_agent(name: str) -> Agent:
    try:
        return AGENTS[name]()
    except KeyError:
        raise UnknownAgentError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}") from None


def agent_names() -> list[str]:
    return sorted(AGENTS)


def agent_label(name: str) -> str | None:
    """What people read for the built-in agent ``name`` (``Agent.label``), or None: not a built-in, or one without a
    label of its own (people then read its name)."""
    cls = AGENTS.get(name)
    return (cls.label or None) if cls is not None else None
