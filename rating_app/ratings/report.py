"""What a rating run produces; plain data, JSON-ready."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# How a game's scope chooses the agents it fits (the overall scope always fits every agent of the input):
# "connected": only the agents that played the game, and of those only the largest group linked by counted
#   comparisons; nobody gets a number the game's matches cannot support.
# "paper": every agent of the whole input in every game, absent ones included, as the GameBench paper's script
#   did; this reproduces its per-game ratings (Table 2). An absent agent's log-strength is held near the neutral
#   value by the regularisation alone, and centring over all agents moves it and shifts everyone else's numbers
#   (gpt-4-rap, which never played Sea Battle, gets about 1.4 there because gpt-4's -7.4 drags the mean down).
METHODS = ("connected", "paper")


@dataclass(frozen=True)
class RatingConfig:
    bootstrap: int = 10_000
    seed: int = 0
    ties: str = "skip"
    alpha: float = 0.001  # choix ILSR regularisation, as in the seeds
    interval: float = 0.90
    method: str = "connected"  # one of METHODS


@dataclass
class AgentRating:
    agent: str
    rating: float  # mean over bootstrap resamples of the centred log-strength
    low: float  # lower end of the interval (5th percentile for a 90% interval)
    high: float
    rank: int  # 1 = best, by mean rating
    rank_low: int  # best rank within the interval
    rank_high: int  # worst rank within the interval
    average_score: float | None  # mean score per match played in this scope (ties included); None: played none
    matches: int
    absent_resamples: int = 0  # resamples in which the agent had no counted comparison
    notes: list[str] = field(default_factory=list)


@dataclass
class ScopeRating:
    scope: str  # "overall" or a game id
    games: list[str]
    agents: list[str]  # rated agents, best first
    ratings: list[AgentRating]
    win_probability: list[list[float]]  # [i][j]: P(agents[i] beats agents[j])
    match_counts: list[list[int]]  # [i][j]: matches between agents[i] and agents[j] in this scope
    n_matches: int
    n_counted: int  # matches that gave at least one counted comparison
    excluded: list[dict] = field(default_factory=list)  # agents left out, each with the reason
    components: list[list[str]] = field(default_factory=list)  # set when the comparison graph is disconnected

    def rating_of(self, agent: str) -> AgentRating | None:
        return next((r for r in self.ratings if r.agent == agent), None)


@dataclass
class RatingReport:
    config: RatingConfig
    library_version: str
    games: list[str]
    agents: list[str]
    n_matches: int
    scopes: dict[str, ScopeRating]
    average_scores: dict[str, dict[str, float]]  # agent -> game -> mean score (the seeds' Table 3)
    match_counts_by_game: dict[str, dict[str, dict[str, int]]]  # game -> agent -> opponent -> matches

    def to_json(self) -> dict:
        return asdict(self)
