"""The report of a protocol run: ratings (overall and per game, with intervals), average scores, win probabilities,
scores per reasoning category and what each model cost, with the provenance of every number.

``build`` returns one JSON-ready dict (what ``report.json`` holds); ``render`` turns it into the text the command
prints and ``report.md`` holds; ``write`` writes both and ``matches.csv`` (one row per match: enough to rate the run
again anywhere, or to replay any match from its seed).
"""

from __future__ import annotations

import csv
import json
import subprocess
from collections import defaultdict
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from gameplay.engines.registry import GAMES
from gameplay.engines.spec import REASONING_CATEGORIES
from rating_app.ratings import LIBRARY_VERSION, RatingConfig, RatingInputError, rate

from ..decision_selectors import decision_quality
from . import selectors
from .schema import Protocol
from .services import PlannedTournament


def build(protocol: Protocol, planned: list[PlannedTournament]) -> dict:
    played = selectors.played_matches(planned)
    progress = selectors.progress(planned)
    match_ids = [m.match_id for m in played]
    usage = selectors.model_usage(protocol, match_ids)
    modelled = [a.name for a in protocol.agents if a.model]
    report: dict = {
        "protocol": {
            "name": protocol.name,
            "version": protocol.version,
            "description": protocol.description,
            "file": protocol.source,
            "sha256": protocol.sha256,
        },
        "provenance": {
            "code_version": code_version(),
            "rating_library": LIBRARY_VERSION,
            "rating": vars(protocol.rating) | {"interval": 0.90},
            "seeds": list(protocol.seeds),
            "generated_at": timezone.now().isoformat(timespec="seconds"),
        },
        "progress": {game: vars(p) for game, p in progress.items()},
        "tournaments": [
            {"game": p.game.game, "seed": p.seed, "tournament": p.tournament.pk, "key": p.tournament.key,
             "agents": list(p.agents), "seats": p.tournament.seats, "options": p.tournament.options}
            for p in planned
        ],
        "models": [vars(u) for u in usage],
        # Per agent that calls a model: how many of its decisions were its own (agents_app.decision_selectors).
        "decisions": [q.as_dict() for q in decision_quality(match_ids, modelled).values()] if modelled else [],
        "ratings": {},
        "average_scores": {},
        "categories": {},
        "win_probability": {},
    }
    if not played:
        return report
    config = RatingConfig(
        bootstrap=protocol.rating.bootstrap, seed=protocol.rating.seed, ties=protocol.rating.ties,
        method=protocol.rating.method,
    )
    try:
        rated = rate([m.result() for m in played], config)
    except RatingInputError as err:
        report["ratings_error"] = str(err)
        return report
    for name, scope in rated.scopes.items():
        report["ratings"][name] = [
            {"agent": r.agent, "rating": r.rating, "low": r.low, "high": r.high, "rank": r.rank,
             "average_score": r.average_score, "matches": r.matches, "notes": r.notes}
            for r in scope.ratings
        ] + [{"agent": ex["agent"], "excluded": ex["reason"]} for ex in scope.excluded]
    # Per scope, as the ratings give them: row beats column, from the scope's mean ratings.
    report["win_probability"] = {
        name: {"agents": scope.agents, "matrix": scope.win_probability} for name, scope in rated.scopes.items()
    }
    report["average_scores"] = rated.average_scores
    report["categories"] = category_scores(rated.average_scores)
    return report


def category_scores(average_scores: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Category -> agent -> the mean, over the category's games the agent played, of its average score per game
    (each game weighs the same, as in the overall rating)."""
    by_category: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for agent, per_game in average_scores.items():
        for game, score in per_game.items():
            cls = GAMES.get(game)
            for category in cls.spec.reasoning_categories if cls else ():
                by_category[category][agent].append(score)
    return {
        category: {agent: sum(s) / len(s) for agent, s in sorted(agents.items())}
        for category in REASONING_CATEGORIES
        if (agents := by_category.get(category))
    }


def code_version() -> str:
    """The commit the code runs at ("+changes" when the checkout differs from it), or "unknown" outside git."""
    root = Path(settings.BASE_DIR)
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if commit.returncode != 0:
        return "unknown"
    return commit.stdout.strip() + ("+changes" if status.stdout.strip() else "")


# --- text ------------------------------------------------------------------------


def render(report: dict) -> str:
    p, prov = report["protocol"], report["provenance"]
    rating = prov["rating"]
    done = report["progress"].get("all", {})
    lines = [
        f"# Protocol {p['name']} {p['version']}".rstrip(),
        "",
        f"file {p['file']} (sha256 {p['sha256'][:16]}), code {prov['code_version']}, "
        f"rating library {prov['rating_library']}",
        f"seeds {', '.join(map(str, prov['seeds']))}; ratings: method {rating['method']}, B={rating['bootstrap']}, "
        f"seed {rating['seed']}, ties {rating['ties']}, 90% intervals",
        f"matches: {done.get('finished', 0)} finished, {done.get('failed', 0)} failed, of {done.get('total', 0)}",
        "",
        "## Cost per model",
        "",
        _table(
            ["model", "agents", "calls", "prompt tokens", "completion tokens", "time (s)", "cost (USD)", "fallbacks"],
            [[u["model"], ", ".join(u["agents"]), u["calls"], u["prompt_tokens"], u["completion_tokens"],
              f"{u['seconds']:.1f}", "no price" if u["cost"] is None else f"{u['cost']:.4f}", u["fallbacks"]]
             for u in report["models"]],
        ),
    ]
    unreported = [u["model"] for u in report["models"] if u["calls_without_usage"]]
    if unreported:
        lines.append(f"(calls without token counts from the server, not in the cost: {', '.join(unreported)})")
    if report.get("decisions"):
        lines += ["", "## Decisions per model agent", "",
                  "copied: the move was an action the prompt showed as an example; first listed: the first action "
                  "its list showed (shares of the decisions whose record says so, fallbacks aside)", "", _table(
                      ["agent", "decisions", "fallbacks", "copied a suggestion", "first listed"],
                      [[d["agent"], d["decisions"], _share(d["fallback_share"]), _share(d["copied_share"]),
                        _share(d["first_listed_share"])] for d in report["decisions"]],
                  )]
    if "ratings_error" in report:
        lines += ["", f"Not rated: {report['ratings_error']}"]
    for scope, rows in report["ratings"].items():
        lines += ["", f"## Ratings: {scope}", "", _table(
            ["rank", "agent", "rating", "90% interval", "avg score", "matches"],
            [[r["rank"], r["agent"], f"{r['rating']:.2f}", f"[{r['low']:.2f}, {r['high']:.2f}]",
              _score(r["average_score"]), r["matches"]] if "excluded" not in r
             else ["-", r["agent"], "not rated", r["excluded"], "", ""] for r in rows],
        )]
    if report["categories"]:
        agents = sorted({a for per in report["categories"].values() for a in per})
        lines += ["", "## Average score per reasoning category", "", _table(
            ["category", *agents],
            [[REASONING_CATEGORIES[c], *(_score(per.get(a)) for a in agents)]
             for c, per in report["categories"].items()],
        )]
    for scope, table in report["win_probability"].items():
        agents = table["agents"]
        lines += ["", f"## Win probability: {scope} (row beats column)", "", _table(
            ["", *agents],
            [[a, *(f"{p:.2f}" for p in row)] for a, row in zip(agents, table["matrix"], strict=True)],
        )]
    return "\n".join(lines) + "\n"


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def write(report: dict, directory: Path, played: list[selectors.PlayedMatch]) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / "report.md", directory / "report.json", directory / "matches.csv"]
    paths[0].write_text(render(report))
    paths[1].write_text(json.dumps(report, indent=1, sort_keys=True))
    with paths[2].open("w", newline="") as out:
        rows = csv.writer(out)
        rows.writerow(["game", "protocol_seed", "index", "match_seed", "match_id", "seat_agents", "scores", "teams"])
        for m in played:
            rows.writerow([m.game, m.seed, m.index, m.match_seed, m.match_id, " ".join(m.seat_agents),
                           " ".join(f"{s:g}" for s in m.scores), " ".join(map(str, m.teams or ()))])
    return paths


def _score(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _table(header: list, rows: list[list]) -> str:
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    fmt = lambda row: "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"  # noqa: E731
    return "\n".join([fmt(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(fmt, cells[1:])])
