"""Reads of a protocol run: its progress, its finished matches as rating input, and what each model spent."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from agents_app.models import AgentCall, TournamentMatch
from agents_app.tournaments import selectors as tournament_selectors
from gameplay.models import Match
from gameplay.reads.player_results import kept_teams
from rating_app.ratings.results import MatchResult

from .schema import Protocol
from .services import PlannedTournament


@dataclass(frozen=True)
class PlayedMatch:
    """One finished match of the run, as the report lists it."""

    game: str
    seed: int  # the tournament's seed (the protocol's)
    index: int
    match_seed: int
    match_id: int
    seat_agents: tuple[str, ...]
    scores: tuple[float, ...]
    teams: tuple[int, ...] | None

    def result(self) -> MatchResult:
        return MatchResult(self.game, self.seat_agents, self.scores, self.teams)


@dataclass
class ModelUsage:
    """What one model cost the run: every call the platform stored for the agents that use it."""

    model: str
    agents: list[str] = field(default_factory=list)
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    fallbacks: int = 0
    calls_without_usage: int = 0  # calls whose reply reported no token counts (their cost is not in the total)
    cost: float | None = None  # US dollars, None when the protocol gives no price for the model


def progress(planned: list[PlannedTournament]) -> dict[str, tournament_selectors.Progress]:
    """Per game (all its seeds together), and "all"."""
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for p in planned:
        got = tournament_selectors.progress(p.tournament)
        for name in ("total", "pending", "queued", "running", "finished", "failed"):
            totals[p.game.game][name] += getattr(got, name)
            totals["all"][name] += getattr(got, name)
    return {game: tournament_selectors.Progress(**counts) for game, counts in totals.items()}


def played_matches(planned: list[PlannedTournament]) -> list[PlayedMatch]:
    """Every finished match of the run, in protocol order (game, seed, index)."""
    played = []
    for p in planned:
        entries = (
            p.tournament.entries.filter(status=TournamentMatch.Status.FINISHED, match__status=Match.Status.FINISHED)
            .select_related("match")
            .order_by("index")
        )
        for entry in entries:
            match = entry.match
            scores = match.scores
            if not isinstance(scores, list) or len(scores) != len(entry.seat_agents):
                continue
            teams = kept_teams(match.final_teams, len(scores))
            played.append(PlayedMatch(
                game=p.game.game, seed=p.seed, index=entry.index, match_seed=entry.seed, match_id=match.pk,
                seat_agents=tuple(entry.seat_agents), scores=tuple(float(s) for s in scores),
                teams=tuple(teams) if teams is not None else None,
            ))
    return played


def model_usage(protocol: Protocol, match_ids: list[int]) -> list[ModelUsage]:
    """Calls, tokens, time and cost per model over the run's matches (every stored call of every agent decision,
    corrections, explanations and planning included), priced by the protocol's ``prices``."""
    model_of = {a.name: a.model for a in protocol.agents if a.model}
    rows = (
        AgentCall.objects.filter(match_id__in=match_ids, agent_name__in=list(model_of))
        .values("agent_name")
        .annotate(
            calls=Count("pk"),
            prompt=Sum("prompt_tokens"),
            completion=Sum("completion_tokens"),
            ms=Sum("latency_ms"),
            fallbacks=Count("pk", filter=Q(fallback=True)),
            unreported=Count("pk", filter=Q(prompt_tokens__isnull=True) | Q(completion_tokens__isnull=True)),
        )
    )
    usage: dict[str, ModelUsage] = {}
    for name, model in model_of.items():  # every model of the file, even one whose agents made no call
        usage.setdefault(model, ModelUsage(model)).agents.append(name)
    for row in rows:
        u = usage[model_of[row["agent_name"]]]
        u.calls += row["calls"]
        u.prompt_tokens += row["prompt"] or 0
        u.completion_tokens += row["completion"] or 0
        u.seconds += (row["ms"] or 0) / 1000
        u.fallbacks += row["fallbacks"]
        u.calls_without_usage += row["unreported"]
    for u in usage.values():
        price = protocol.prices.get(u.model)
        if price is not None:
            u.cost = (u.prompt_tokens * price.prompt + u.completion_tokens * price.completion) / 1_000_000
    return sorted(usage.values(), key=lambda u: u.model)
