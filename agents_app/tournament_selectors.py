"""Reads of tournaments: progress, results per agent and per pair, the entries. No writes here."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from agents_app.models import Tournament, TournamentMatch
from gameplay.engines.registry import GAMES
from gameplay.models import Match


@dataclass(frozen=True)
class Progress:
    total: int
    pending: int = 0
    queued: int = 0
    running: int = 0
    finished: int = 0
    failed: int = 0

    @property
    def done(self) -> bool:
        """Nothing left in flight: every entry finished or failed."""
        return self.finished + self.failed == self.total

    @property
    def percent(self) -> int:
        return round(100 * self.finished / self.total) if self.total else 100


@dataclass
class AgentResult:
    agent: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0


@dataclass
class PairResult:
    """Results between two agents, seen from ``first`` (the one named earlier in the tournament)."""

    first: str
    second: str
    matches: int = 0
    first_wins: int = 0
    draws: int = 0
    second_wins: int = 0
    first_points: float = 0.0
    second_points: float = 0.0


@dataclass(frozen=True)
class Results:
    agents: list[AgentResult] = field(default_factory=list)
    pairs: list[PairResult] = field(default_factory=list)


def tournament_list(limit: int = 200) -> list[tuple[Tournament, Progress]]:
    tournaments = list(Tournament.objects.order_by("-created_at")[:limit])
    counts = _counts(TournamentMatch.objects.filter(tournament__in=[t.pk for t in tournaments]), by_tournament=True)
    return [(t, _progress(counts.get(t.pk, {}))) for t in tournaments]


def progress(tournament: Tournament) -> Progress:
    return _progress(_counts(tournament.entries.all()).get(None, {}))


def results(tournament: Tournament) -> Results:
    """Per agent and per pair, from the scores of finished entries; points are the sum of scores.

    A win is a higher score than the opponent's in that match, a draw an equal one; so the same
    rule serves games scored 1/0 and games scored by points.
    """
    per_agent = {name: AgentResult(name) for name in tournament.agents}
    order = {name: i for i, name in enumerate(tournament.agents)}
    per_pair: dict[tuple[str, str], PairResult] = {}
    for i, first in enumerate(tournament.agents):
        for second in tournament.agents[i + 1 :]:
            per_pair[(first, second)] = PairResult(first, second)
    finished = tournament.entries.filter(
        status=TournamentMatch.Status.FINISHED, match__status=Match.Status.FINISHED
    ).values_list("seat_agents", "match__scores")
    for seat_agents, scores in finished:
        if not scores or len(scores) != len(seat_agents):
            continue
        for seat, name in enumerate(seat_agents):
            mine, theirs = scores[seat], scores[1 - seat]
            row = per_agent[name]
            row.matches += 1
            row.points += mine
            row.wins += mine > theirs
            row.draws += mine == theirs
            row.losses += mine < theirs
        first_seat = 0 if order[seat_agents[0]] < order[seat_agents[1]] else 1
        pair = per_pair[tuple(sorted(seat_agents, key=order.__getitem__))]
        a, b = scores[first_seat], scores[1 - first_seat]
        pair.matches += 1
        pair.first_points += a
        pair.second_points += b
        pair.first_wins += a > b
        pair.draws += a == b
        pair.second_wins += a < b
    ranked = sorted(per_agent.values(), key=lambda r: (-r.points, -r.wins, order[r.agent]))
    return Results(agents=ranked, pairs=list(per_pair.values()))


def chosen_options(tournament: Tournament) -> dict:
    """The options that differ from the game's defaults: all a command line needs to name the same tournament
    (stored options are normalised, defaults included, so both spellings give the same key)."""
    game = GAMES.get(tournament.game_id)
    defaults = game(None, 2).options if game else {}
    return {k: v for k, v in tournament.options.items() if k not in defaults or defaults[k] != v}


def entries(tournament: Tournament) -> list[TournamentMatch]:
    """The entries in order, with their matches (for links, winners and scores)."""
    return list(tournament.entries.select_related("match").order_by("index"))


# --- helpers -------------------------------------------------------------------


def _counts(queryset, by_tournament: bool = False) -> dict:
    group = ["tournament_id", "status"] if by_tournament else ["status"]
    counts: dict = {}
    for row in queryset.order_by().values(*group).annotate(n=Count("pk")):
        key = row["tournament_id"] if by_tournament else None
        counts.setdefault(key, {})[row["status"]] = row["n"]
    return counts


def _progress(by_status: dict[str, int]) -> Progress:
    return Progress(total=sum(by_status.values()), **by_status)
