"""Reads of tournaments: progress, results per agent and per pair, the entries. No writes here."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from agents_app.models import Tournament, TournamentMatch
from gameplay.engines.registry import GAMES
from gameplay.models import Match
from gameplay.reads import player_results as rule
from gameplay.reads.selectors import measures_at_end


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
class Teamwork:
    """A cooperative game's outcomes (every seat on one team): how often the goal was reached, in how many turns."""

    successes: int = 0
    turns_to_goal: list = field(default_factory=list)  # the turns measure of each match that reached the goal

    def add(self, reached: bool, turns) -> None:
        self.successes += bool(reached)
        if reached and isinstance(turns, int | float):
            self.turns_to_goal.append(turns)

    @property
    def mean_turns(self) -> float | None:
        return sum(self.turns_to_goal) / len(self.turns_to_goal) if self.turns_to_goal else None


@dataclass
class AgentResult:
    agent: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    team: Teamwork = field(default_factory=Teamwork)

    @property
    def success_rate(self) -> float | None:
        return self.team.successes / self.matches if self.matches else None


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
    team: Teamwork = field(default_factory=Teamwork)

    @property
    def success_rate(self) -> float | None:
        return self.team.successes / self.matches if self.matches else None


@dataclass(frozen=True)
class Results:
    agents: list[AgentResult] = field(default_factory=list)
    pairs: list[PairResult] = field(default_factory=list)
    # A cooperative game (one team): wins mean nothing there, so results are the goal reached and the turns it took,
    # read from the measures the game declares (GameSpec.goal_measure and its until_goal measure).
    cooperative: bool = False
    goal_measure: str = ""
    turns_measure: str = ""


def tournament_list(limit: int = 200) -> list[tuple[Tournament, Progress]]:
    tournaments = list(Tournament.objects.order_by("-created_at")[:limit])
    counts = _counts(TournamentMatch.objects.filter(tournament__in=[t.pk for t in tournaments]), by_tournament=True)
    return [(t, _progress(counts.get(t.pk, {}))) for t in tournaments]


def progress(tournament: Tournament) -> Progress:
    return _progress(_counts(tournament.entries.all()).get(None, {}))


def results(tournament: Tournament) -> Results:
    """Per agent and per pair, from the finished entries, by the one rule of gameplay/reads/player_results.py.

    An agent's result in a match is the mean result of the seats it held (a seat's result: its score, or in a match
    played in teams its team's summed score); a win is a higher result than the opponent's, a draw an equal one, so
    the same rule serves games scored 1/0, by points, and of more than two seats (a three-way draw of A, B, A is a
    draw). Points are the sum of an agent's results: a two-seat win 1, a draw 1/2, a three-seat three-way draw 1/3.
    """
    per_agent = {name: AgentResult(name) for name in tournament.agents}
    order = {name: i for i, name in enumerate(tournament.agents)}
    per_pair: dict[tuple[str, str], PairResult] = {}
    for i, first in enumerate(tournament.agents):
        for second in tournament.agents[i + 1 :]:
            per_pair[(first, second)] = PairResult(first, second)
    goal, turns = _teamwork_measures(tournament)
    finished = tournament.entries.filter(
        status=TournamentMatch.Status.FINISHED, match__status=Match.Status.FINISHED
    ).select_related("match")
    for entry in finished:
        seat_agents, scores = entry.seat_agents, entry.match.scores
        if not scores or len(scores) != len(seat_agents):
            continue
        if goal:
            measures = measures_at_end(entry.match)  # one team: every seat's outcome is the same
            outcome = (measures.get(goal), measures.get(turns))
            for name in dict.fromkeys(seat_agents):
                per_agent[name].team.add(*outcome)
            per_pair[tuple(sorted(seat_agents, key=order.__getitem__))].team.add(*outcome)
        by_agent = _agent_results(entry)
        for name, result in by_agent.items():
            row = per_agent[name]
            row.matches += 1
            row.points += result
            verdict = rule.outcome(by_agent, name)
            row.wins += verdict == rule.WIN
            row.draws += verdict == rule.DRAW
            row.losses += verdict == rule.LOSS
        first, second = sorted(by_agent, key=order.__getitem__)
        pair = per_pair[(first, second)]
        verdict = rule.compare(by_agent[first], by_agent[second])
        pair.matches += 1
        pair.first_points += by_agent[first]
        pair.second_points += by_agent[second]
        pair.first_wins += verdict == rule.WIN
        pair.draws += verdict == rule.DRAW
        pair.second_wins += verdict == rule.LOSS
    _round_points(per_agent.values(), per_pair.values())
    if goal:
        ranked = sorted(per_agent.values(), key=lambda r: (-(r.success_rate or 0), r.team.mean_turns or 0,
                                                           order[r.agent]))
        return Results(agents=ranked, pairs=list(per_pair.values()), cooperative=True, goal_measure=goal,
                       turns_measure=turns)
    ranked = sorted(per_agent.values(), key=lambda r: (-r.points, -r.wins, order[r.agent]))
    return Results(agents=ranked, pairs=list(per_pair.values()))


def _round_points(agents, pairs) -> None:
    """Points to 9 decimals: six three-way draws are 2 points, not the 1.9999999999999998 adding thirds gives."""
    for row in agents:
        row.points = round(row.points, 9)
    for pair in pairs:
        pair.first_points, pair.second_points = round(pair.first_points, 9), round(pair.second_points, 9)


def _agent_results(entry: TournamentMatch) -> dict[str, float]:
    """Each agent's result in a finished entry's match (``player_results``: the mean of its seats' results, a seat
    counting its team's result when the match kept its teams)."""
    return rule.player_results(entry.seat_agents, entry.match.scores, entry.match.final_teams)


def _teamwork_measures(tournament: Tournament) -> tuple[str, str]:
    """The goal and turns measures of a cooperative game (every seat on one team), or ("", "") for other games."""
    cls = GAMES.get(tournament.game_id)
    if cls is None:
        return "", ""
    game = cls(tournament.options, tournament.seats)
    if len(set(game.teams())) != 1 or not cls.spec.goal_measure:
        return "", ""
    turns = next((m.name for m in cls.spec.measures if m.until_goal), "")
    return cls.spec.goal_measure, turns


def chosen_options(tournament: Tournament) -> dict:
    """The options that differ from the game's defaults: all a command line needs to name the same tournament
    (stored options are normalised, defaults included, so both spellings give the same key)."""
    game = GAMES.get(tournament.game_id)
    defaults = game(None, tournament.seats).options if game else {}
    return {k: v for k, v in tournament.options.items() if k not in defaults or defaults[k] != v}


def entries(tournament: Tournament) -> list[TournamentMatch]:
    """The entries in order, with their matches (for links and scores) and, once played, ``winner_agent``: the agent
    whose result is the higher (``results``' rule: the mean of its seats' results), "" for a draw."""
    rows = list(tournament.entries.select_related("match").order_by("index"))
    for entry in rows:
        scores = entry.match.scores if entry.match is not None else None
        entry.winner_agent = ""
        if isinstance(scores, list) and len(scores) == len(entry.seat_agents):
            entry.winner_agent = rule.winner(_agent_results(entry)) or ""
    return rows


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
