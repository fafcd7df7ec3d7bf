"""Reads: the match results a leaderboard rates, stored rating runs and open refresh requests. No writes here."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from agents_app.agents.registry import AGENTS
from agents_app.decision_selectors import decision_quality
from gameplay.engines.registry import GAMES
from gameplay.models import Match, Seat
from gameplay.reads.selectors import measures_at_end
from rating_app import ratings
from rating_app.models import RatingRun, RefreshRequest
from rating_app.ratings import (
    AgentRating,
    MatchResult,
    RatingConfig,
    RatingInputError,
    ScopeRating,
    load_seed_file,
)

# Every human seat is one agent on the leaderboard: people as a group, against each agent.
HUMAN = "human"
GAMEBENCH_FILE = Path(settings.BASE_DIR) / "fixtures" / "gamebench_matches.json"
GAMEBENCH_URL = "https://github.com/Joshuaclymer/GameBench"

# Display names of the games in the GameBench data; games on this platform use their engine's name.
GAMEBENCH_GAME_NAMES = {
    "air_land_sea": "Air, Land & Sea",
    "arctic_scavengers": "Arctic Scavengers",
    "are_you_the_traitor": "Are You the Traitor?",
    "codenames": "Codenames",
    "hive": "Hive",
    "pit": "Pit",
    "santorini": "Santorini",
    "sea_battle": "Sea Battle",
    "two_rooms_and_a_boom": "Two Rooms and a Boom",
}

FILTER_KEYS = ("games", "agents", "since", "until")

# A refresh request still open after this long is taken as lost (e.g. its worker died): pages offer the button again.
REFRESH_PENDING_FOR = dt.timedelta(minutes=10)


def game_name(game_id: str) -> str:
    """The human name of a game id found in the data (an unknown id is shown readably, never dropped)."""
    if game_id in GAMES:
        return GAMES[game_id].spec.name
    return GAMEBENCH_GAME_NAMES.get(game_id) or game_id.replace("_", " ").capitalize()


def normalise_filters(filters: dict | None) -> dict:
    """Canonical filters: sorted unique games and agents, ISO dates, every key present."""
    filters = filters or {}
    unknown = set(filters) - set(FILTER_KEYS)
    if unknown:
        raise ValueError(f"unknown filters: {', '.join(sorted(unknown))}")

    def day(value) -> str | None:
        if value in (None, ""):
            return None
        if isinstance(value, dt.datetime):
            value = value.date()
        if isinstance(value, dt.date):
            return value.isoformat()
        return dt.date.fromisoformat(str(value)).isoformat()

    return {
        "games": sorted(set(filters.get("games") or ())),
        "agents": sorted(set(filters.get("agents") or ())),
        "since": day(filters.get("since")),
        "until": day(filters.get("until")),
    }


def cooperative_games() -> list[str]:
    """Registered games whose seats always form a single team: nothing to rate between players."""
    return [game_id for game_id, cls in GAMES.items() if len(set(cls().teams())) == 1]


TEAMWORK_MATCHES = 2000  # the newest finished matches of a cooperative game that its table reads


@dataclass
class TeamworkRow:
    """One player (an agent, or "human") of a cooperative game: how often its teams reached the goal, how fast."""

    player: str
    matches: int = 0
    successes: int = 0
    turns: list = dataclass_field(default_factory=list)  # the turns to the goal of each successful match

    @property
    def success_rate(self) -> float:
        return self.successes / self.matches if self.matches else 0.0

    @property
    def mean_turns(self) -> float | None:
        return sum(self.turns) / len(self.turns) if self.turns else None


def teamwork_standings(filters: dict | None = None) -> list[dict]:
    """Cooperative games have no winner to rate: per game, each player's success rate and mean turns to the goal
    (GameSpec.goal_measure and its until_goal measure) over the newest finished platform matches, best first."""
    f = normalise_filters(filters)
    tables = []
    for game_id in cooperative_games():
        cls = GAMES[game_id]
        if not cls.spec.goal_measure or (f["games"] and game_id not in f["games"]):
            continue
        turns_measure = next((m.name for m in cls.spec.measures if m.until_goal), "")
        matches = Match.objects.filter(status=Match.Status.FINISHED, game_id=game_id)
        if f["since"]:
            matches = matches.filter(finished_at__date__gte=f["since"])
        if f["until"]:
            matches = matches.filter(finished_at__date__lte=f["until"])
        rows: dict[str, TeamworkRow] = {}
        # The state (the largest column) is read only for a match finished before its measures were kept.
        for match in matches.order_by("-pk").defer("state").prefetch_related("seats")[:TEAMWORK_MATCHES]:
            measures = measures_at_end(match)  # one team: the outcome is every seat's
            players = [s.agent_name if s.controller == Seat.Controller.AGENT else HUMAN for s in match.seats.all()]
            if f["agents"] and not set(players) <= set(f["agents"]):
                continue
            for player in dict.fromkeys(players):
                row = rows.setdefault(player, TeamworkRow(player))
                row.matches += 1
                if measures.get(cls.spec.goal_measure):
                    row.successes += 1
                    if isinstance(measures.get(turns_measure), int | float):
                        row.turns.append(measures[turns_measure])
        if rows:
            ranked = sorted(rows.values(), key=lambda r: (-r.success_rate, r.mean_turns or 0, r.player))
            tables.append({"game_id": game_id, "title": cls.spec.name, "goal": cls.spec.goal_measure,
                           "turns": turns_measure, "rows": ranked})
    return tables


def platform_results(
    games: Iterable[str] | None = None,
    agents: Iterable[str] | None = None,
    since: dt.date | str | None = None,
    until: dt.date | str | None = None,
) -> tuple[list[MatchResult], str]:
    """Finished matches of this platform as rating input, and a fingerprint of exactly that set.

    Each seat is rated as its agent id: ``seat.agent_name`` for agent seats, ``"human"`` for
    every human seat. ``games`` keeps matches of those games; ``agents`` keeps matches in which
    every seat is one of those agents (the leaderboard of that pool); ``since``/``until`` are
    inclusive days of ``finished_at`` in the site's time zone. There is no tournament filter:
    matches do not belong to tournaments yet.
    """
    f = normalise_filters({"games": games, "agents": agents, "since": since, "until": until})
    matches = _rateable_matches(f)
    rows = list(matches.order_by("pk").values_list("pk", "game_id", "scores", "finished_at", "final_teams"))
    seats: dict[int, list[str]] = defaultdict(list)
    seat_rows = (
        Seat.objects.filter(match__in=matches)
        .order_by("match_id", "index")
        .values_list("match_id", "controller", "agent_name")
    )
    for match_id, controller, agent_name in seat_rows:
        seats[match_id].append(agent_name if controller == Seat.Controller.AGENT else HUMAN)
    wanted = set(f["agents"])
    results, digest = [], hashlib.sha256()
    for pk, game_id, scores, finished_at, final_teams in rows:
        ids = seats.get(pk, [])
        if not isinstance(scores, list) or len(scores) != len(ids):
            continue  # not a rateable result (cannot happen for matches finished by the match service)
        if wanted and not set(ids) <= wanted:
            continue
        # The teams as they stood at the end (Match.final_teams; None: every seat for itself, as before they were kept).
        teams = tuple(int(t) for t in final_teams) if isinstance(final_teams, list) and len(final_teams) == len(ids) \
            else None
        results.append(MatchResult(game_id, tuple(ids), tuple(float(s) for s in scores), teams))
        stamp = finished_at.isoformat() if finished_at else ""
        digest.update(f"{pk}:{stamp}\n".encode())
    return results, digest.hexdigest()


def _rateable_matches(f: dict):
    """Finished matches of the normalised filters' games and days (their agents are filtered per match later)."""
    # Cooperative games (every seat on one team, e.g. Gnomes at Night) have no winner to rate.
    matches = Match.objects.filter(status=Match.Status.FINISHED).exclude(game_id__in=cooperative_games())
    if f["games"]:
        matches = matches.filter(game_id__in=f["games"])
    if f["since"]:
        matches = matches.filter(finished_at__date__gte=f["since"])
    if f["until"]:
        matches = matches.filter(finished_at__date__lte=f["until"])
    return matches


def model_decisions(filters: dict | None, agents: Iterable[str] | None = None) -> list[dict]:
    """How the decisions of the rated agents that call a model went in the selected matches (agents_app's
    decision_selectors: fallbacks, moves copied from a suggestion, first-listed moves), for the provenance.
    It reads every stored call of those matches: computed with a rating run and stored on it, never per page."""
    quality = decision_quality(_rateable_matches(normalise_filters(filters)), agents)
    return [q.as_dict() for q in quality.values() if q.decisions]


def gamebench_results() -> tuple[list[MatchResult], str]:
    """The GameBench paper's match records (fixtures/gamebench_matches.json) and the file's sha256."""
    fingerprint = hashlib.sha256(GAMEBENCH_FILE.read_bytes()).hexdigest()
    return load_seed_file(GAMEBENCH_FILE), fingerprint


def results_for(source: str, filters: dict) -> tuple[list[MatchResult], str]:
    if source == RatingRun.Source.PLATFORM:
        return platform_results(**normalise_filters(filters))
    if source == RatingRun.Source.GAMEBENCH:
        return gamebench_results()
    raise ValueError(f"unknown rating source {source!r}")


def run_filters(source: str, filters: dict | None) -> dict:
    """The filters a run of this source records: the published data is always rated whole."""
    return normalise_filters(filters) if source == RatingRun.Source.PLATFORM else {}


def cache_key(source: str, filters: dict | None, config: RatingConfig) -> str:
    """What makes two runs interchangeable, apart from the matches themselves (the library version too)."""
    payload = {
        "source": source,
        "filters": run_filters(source, filters),
        "config": asdict(config),
        "library_version": ratings.LIBRARY_VERSION,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def latest_run(source: str, filters: dict | None, config: RatingConfig) -> RatingRun | None:
    """The newest run of this source, filters, configuration and library version (any matches)."""
    return RatingRun.objects.filter(cache_key=cache_key(source, filters, config)).order_by("-created_at", "-pk").first()


def platform_filter_choices() -> tuple[list[tuple[str, str]], list[str]]:
    """Games (id, name) and agent ids the platform filters offer: registered ones plus any seen in matches."""
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    game_ids = set(GAMES) | set(finished.values_list("game_id", flat=True).distinct())
    agent_ids = set(AGENTS) | {HUMAN}
    agent_ids |= set(
        Seat.objects.filter(match__in=finished, controller=Seat.Controller.AGENT)
        .values_list("agent_name", flat=True)
        .distinct()
    )
    return sorted(((g, game_name(g)) for g in game_ids), key=lambda c: c[1].lower()), sorted(agent_ids)


def run_scope(run: RatingRun, scope: str) -> ScopeRating | None:
    """One scope of a stored run as the library's ScopeRating (None if the run has no such scope)."""
    data = (run.result or {}).get("scopes", {}).get(scope)
    if data is None:
        return None
    fields = {f.name for f in dataclasses.fields(ScopeRating)}
    rating_fields = {f.name for f in dataclasses.fields(AgentRating)}
    data = {k: v for k, v in data.items() if k in fields}
    data["ratings"] = [AgentRating(**{k: v for k, v in r.items() if k in rating_fields}) for r in data["ratings"]]
    return ScopeRating(**data)


# --- what a leaderboard page shows (pages never compute: they read what is stored) -----------------------------


@dataclasses.dataclass(frozen=True)
class Standing:
    """The stored state of one selection's ratings."""

    run: RatingRun | None  # the newest stored run (or the pinned one); None: never computed
    current: bool  # the run rates exactly the matches (or data file) there are now
    pending: RefreshRequest | None  # a computation asked for and not finished yet
    failure: str  # why the latest computation stored nothing, when it came after the run shown


def current_fingerprint(source: str, filters: dict | None) -> str | None:
    """The fingerprint a run computed now would have; None when the input cannot be read."""
    try:
        return results_for(source, run_filters(source, filters))[1]
    except RatingInputError:
        return None


def open_request(source: str, filters: dict | None, config: RatingConfig) -> RefreshRequest | None:
    """The newest refresh request of this selection that is still being worked on (and not given up as lost)."""
    recent = timezone.now() - REFRESH_PENDING_FOR
    return (
        RefreshRequest.objects.filter(
            cache_key=cache_key(source, filters, config), finished_at__isnull=True, requested_at__gte=recent
        )
        .order_by("-requested_at", "-pk")
        .first()
    )


def open_request_count() -> int:
    """How many refresh requests of any selection are still being worked on (and not given up as lost)."""
    recent = timezone.now() - REFRESH_PENDING_FOR
    return RefreshRequest.objects.filter(finished_at__isnull=True, requested_at__gte=recent).count()


def standing(source: str, filters: dict | None, config: RatingConfig, pinned: RatingRun | None = None) -> Standing:
    """The run to show for this selection (``pinned`` if given, else the newest stored) and what is known about it."""
    run = pinned or latest_run(source, filters, config)
    current = run is not None and run.match_fingerprint == current_fingerprint(source, filters)
    finished = (
        RefreshRequest.objects.filter(cache_key=cache_key(source, filters, config), finished_at__isnull=False)
        .order_by("-finished_at", "-pk")
        .first()
    )
    failure = ""
    if finished is not None and finished.error and (run is None or finished.finished_at > run.created_at):
        failure = finished.error
    return Standing(run=run, current=current, pending=open_request(source, filters, config), failure=failure)
