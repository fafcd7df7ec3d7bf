"""A stored run shaped for the pages and the downloads. No database access, no writes."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from rating_app import selectors
from rating_app.models import RatingRun
from rating_app.ratings import ScopeRating

CSV_COLUMNS = ("scope", "agent", "rating", "low", "high", "rank", "rank_low", "rank_high", "average_score", "matches")
TIE_RULES = {
    "skip": "skip (a tie is no comparison)",
    "half": "half (a tie is half a win each way)",
}
PLOT_KINDS = ("whisker", "win-probability", "match-counts")


def scope_title(scope: str) -> str:
    return "Overall" if scope == "overall" else selectors.game_name(scope)


def scope_names(run: RatingRun) -> list[str]:
    """Scopes of a run, overall first, then the games in the data's order (sorted ids)."""
    return ["overall", *(run.result or {}).get("games", [])] if run.ok else []


@dataclass
class Row:
    rank: int
    agent: str
    rating: float
    low: float
    high: float
    rank_low: int
    rank_high: int
    average_score: float
    matches: int
    notes: list[str] = field(default_factory=list)

    @property
    def rank_interval(self) -> str:
        return str(self.rank_low) if self.rank_low == self.rank_high else f"{self.rank_low}–{self.rank_high}"


def rating_rows(scope: ScopeRating, bootstrap: int) -> list[Row]:
    rows = []
    for r in scope.ratings:
        notes = list(r.notes)
        if r.absent_resamples:
            notes.append(f"no counted comparison in {r.absent_resamples:,} of {bootstrap:,} resamples")
        rows.append(
            Row(r.rank, r.agent, r.rating, r.low, r.high, r.rank_low, r.rank_high, r.average_score, r.matches, notes)
        )
    return rows


@dataclass
class ScopeView:
    """One scope of a run as a page section shows it."""

    scope: str
    title: str
    rating: ScopeRating
    rows: list[Row]
    interval: float = 0.9

    @property
    def alt_whisker(self) -> str:
        return (
            f"{self.title} ratings of {len(self.rows)} agents, best first: each agent's mean rating as a dot "
            f"with its {round(self.interval * 100)}% interval as a line; the numbers are in the table."
        )

    @property
    def alt_win_probability(self) -> str:
        return (
            f"Heat map of the probability that each row agent beats each column agent in {self.title}; "
            "the values are in the table below."
        )

    @property
    def alt_match_counts(self) -> str:
        return (
            f"Heat map of the number of matches between each pair of agents in {self.title}; "
            "the values are in the table below."
        )

    @property
    def excluded(self) -> list[dict]:
        return self.rating.excluded

    @property
    def components(self) -> list[list[str]]:
        return self.rating.components


def scope_view(run: RatingRun, scope: str) -> ScopeView | None:
    rating = selectors.run_scope(run, scope)
    if rating is None:
        return None
    return ScopeView(scope, scope_title(scope), rating, rating_rows(rating, run.bootstrap), run.interval)


def matrix_rows(rating: ScopeRating) -> list[tuple[str, list[tuple[float, int, bool]]]]:
    """Per row agent: (P(row beats column), matches between them, column is the row agent) per column."""
    return [
        (agent, [(p, n, i == j) for j, (p, n) in enumerate(zip(probabilities, counts, strict=True))])
        for i, (agent, probabilities, counts) in enumerate(
            zip(rating.agents, rating.win_probability, rating.match_counts, strict=True)
        )
    ]


def average_score_table(run: RatingRun) -> tuple[list[tuple[str, str]], list[tuple[str, list[float | None]]]]:
    """Columns (game id, display name) of every game in the data, then ("overall", "Overall"); one row
    per agent (overall ranking first, then agents the overall scope could not rate) with the agent's mean
    score in each column's game, None where it played none."""
    result = run.result or {}
    scores: dict[str, dict[str, float]] = result.get("average_scores", {})
    columns = [(g, selectors.game_name(g)) for g in result.get("games", [])] + [("overall", "Overall")]
    ranked = result.get("scopes", {}).get("overall", {}).get("agents", [])
    agents = ranked + sorted(a for a in scores if a not in ranked)
    return columns, [(agent, [scores.get(agent, {}).get(game) for game, _ in columns]) for agent in agents]


def describe_filters(run: RatingRun) -> str:
    if run.source != RatingRun.Source.PLATFORM:
        return "every match record of the GameBench paper"
    f = run.filters or {}
    parts = []
    if f.get("games"):
        parts.append("games: " + ", ".join(selectors.game_name(g) for g in f["games"]))
    if f.get("agents"):
        parts.append("only matches between: " + ", ".join(f["agents"]))
    if f.get("since"):
        parts.append(f"finished on or after {f['since']}")
    if f.get("until"):
        parts.append(f"finished on or before {f['until']}")
    return "; ".join(parts) or "all finished matches"


def provenance(run: RatingRun) -> dict:
    """What a reader needs to trust or reproduce the numbers (also the JSON download's header)."""
    return {
        "run": run.pk,
        "source": run.source,
        "source_label": run.get_source_display(),
        "filters": run.filters,
        "selection": describe_filters(run),
        "n_matches": run.n_matches,
        "match_fingerprint": run.match_fingerprint,
        "bootstrap": run.bootstrap,
        "seed": run.seed,
        "ties": run.ties,
        "alpha": run.alpha,
        "interval": run.interval,
        "library_version": run.library_version,
        "computed_at": run.created_at.isoformat() if run.created_at else None,
        "duration_ms": run.duration_ms,
        "error": run.error or None,
        "data_source": selectors.GAMEBENCH_URL if run.source == RatingRun.Source.GAMEBENCH else None,
        "data_license": "CC-BY 4.0, © GameBench authors" if run.source == RatingRun.Source.GAMEBENCH else None,
    }


def json_payload(run: RatingRun) -> dict:
    return {"provenance": provenance(run), "result": run.result}


def csv_text(run: RatingRun) -> str:
    """One row per scope × rated agent, overall first; ratings with full precision."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for scope in scope_names(run):
        rating = selectors.run_scope(run, scope)
        for r in rating.ratings:
            writer.writerow(
                [scope, r.agent, r.rating, r.low, r.high, r.rank, r.rank_low, r.rank_high, r.average_score, r.matches]
            )
    return out.getvalue()
