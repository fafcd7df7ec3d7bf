"""Writes of a protocol run: the agents it names stored, its tournaments created (or found again) and queued.

A protocol run is nothing but tournaments (agents_app.tournaments): one per game and seed, each identified by its
parameters, so running the same file again finds them, plays only what is missing and never a match twice. The
run's matches are Celery tasks, played by however many workers take them (in this process on the embedded default).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction

from agents_app import selectors as agent_selectors
from agents_app.agents import registry
from agents_app.models import AgentConfig, Tournament, TournamentMatch
from agents_app.tournaments import services as tournament_services
from agents_app.tournaments import tasks as tournament_tasks
from gameplay.engines.registry import GAMES

from .schema import GameEntry, Protocol, ProtocolError


@dataclass(frozen=True)
class PlannedTournament:
    """One tournament of the run: a game entry of the protocol, played with one of its seeds."""

    game: GameEntry
    seed: int
    agents: tuple[str, ...]
    tournament: Tournament


def prepare(protocol: Protocol, *, allow_slow: bool = False) -> list[PlannedTournament]:
    """Store the protocol's language-model agents and create (or find) its tournaments; raises ProtocolError with
    every problem found. Safe to repeat: nothing is created twice. An agent measured slower than its decision
    deadline on a game is refused unless ``allow_slow`` or the file's ``allow_slow_agents`` says to go on."""
    ensure_agents(protocol)
    allow_slow = allow_slow or protocol.allow_slow_agents
    problems: list[str] = []
    planned: list[PlannedTournament] = []
    for n, entry in enumerate(protocol.games):
        where = f"games[{n}] ({entry.game})"
        if entry.game not in GAMES:
            problems.append(f"{where}: unknown game; known: {', '.join(sorted(GAMES))}")
            continue
        agents = entry.agents or tuple(
            a.name for a in protocol.agents if agent_selectors.agent_plays(a.name, entry.game)
        )
        if len(agents) < 2:
            problems.append(f"{where}: fewer than two of the protocol's agents play it")
            continue
        for seed in protocol.seeds:
            try:
                tournament = tournament_services.create_or_resume(
                    entry.game,
                    agents,
                    entry.matches_per_pair or protocol.matches_per_pair,
                    seed,
                    entry.options,
                    seats=entry.seats,
                    seating=entry.seating,
                    allow_slow=allow_slow,
                )
            except tournament_services.TournamentError as err:
                problems.append(f"{where}: {err}")
                break  # the same problem for every seed
            planned.append(PlannedTournament(entry, seed, tuple(agents), tournament))
    if problems:
        raise ProtocolError(problems)
    return planned


def ensure_agents(protocol: Protocol) -> None:
    """Every agent of the protocol exists: built-ins by name, language models as stored configurations created from
    the file. A stored configuration of the same name with other settings is refused, never silently changed: the
    matches it already played were played with those settings."""
    problems: list[str] = []
    for agent in protocol.agents:
        if agent.llm is None:
            if not agent_selectors.agent_exists(agent.name):
                problems.append(f"agent {agent.name!r}: not a built-in agent ({', '.join(sorted(registry.AGENTS))})"
                                " nor a stored configuration; give its llm settings in the file")
            continue
        if agent.name in registry.AGENTS:
            problems.append(f"agent {agent.name!r}: the name of a built-in agent; choose another for a model")
            continue
        problems += _ensure_config(agent.name, agent.llm)
    if problems:
        raise ProtocolError(problems)


def schedule(
    planned: list[PlannedTournament],
    *,
    stale_after: timedelta,
    requeue_active: bool = False,
    lost_only: bool = False,
    after_each: Callable[[TournamentMatch], None] | None = None,
) -> int:
    """Queue every entry of the run still to be played (lost ones too: ``mark_for_scheduling``), or with
    ``lost_only`` only the running ones that were lost; how many."""
    return sum(
        tournament_tasks.schedule(
            p.tournament,
            requeue_active=requeue_active,
            stale_after=stale_after,
            lost_only=lost_only,
            after_each=after_each,
        )
        for p in planned
    )


def _ensure_config(name: str, llm: dict) -> list[str]:
    with transaction.atomic():
        config = AgentConfig.objects.select_for_update().filter(name=name).first()
        if config is None:
            config = AgentConfig(name=name, **llm)
            try:
                config.full_clean()
            except ValidationError as err:
                return [f"agent {name!r}: {field}: {' '.join(msgs)}" for field, msgs in err.message_dict.items()]
            config.save()
            return []
    differing = [
        f"{field} is {getattr(config, field)!r} there, {value!r} in the file"
        for field, value in llm.items()
        if getattr(config, field) != value
    ]
    if differing:
        return [f"agent {name!r} is stored with other settings ({'; '.join(differing)}): rename the agent in the "
                "file, or change the stored one in the admin if its matches may be mixed"]
    return []
