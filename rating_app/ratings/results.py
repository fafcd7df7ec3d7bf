"""Match results as the rating library sees them, and the seeds' JSON file format."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path


class RatingInputError(ValueError):
    """Input that cannot be rated (malformed file, bad scores)."""


@dataclass(frozen=True)
class MatchResult:
    """One finished match: its game, the agent in each seat and each seat's score in [0, 1]; ``teams``, when the
    match was played in teams, the team index of each seat (None: every seat for itself)."""

    game: str
    agents: tuple[str, ...]
    scores: tuple[float, ...]
    teams: tuple[int, ...] | None = None

    def __post_init__(self):
        if len(self.agents) != len(self.scores) or len(self.agents) < 2:
            raise RatingInputError(f"a {self.game} match needs one score per seat and at least two seats")
        if self.teams is not None and len(self.teams) != len(self.agents):
            raise RatingInputError(f"a {self.game} match needs one team per seat, got {self.teams}")
        for s in self.scores:
            if not 0.0 <= s <= 1.0:
                raise RatingInputError(f"score {s} in a {self.game} match is outside [0, 1]")

    def seat_results(self) -> tuple[float, ...]:
        """Each seat's result: its score, or in a match played in teams its team's summed score (the comparisons
        and the average scores both count a seat so)."""
        if self.teams is None:
            return self.scores
        totals: dict[int, float] = {}
        for team, score in zip(self.teams, self.scores, strict=True):
            totals[team] = totals.get(team, 0.0) + score
        return tuple(totals[team] for team in self.teams)


def from_seed_records(records: Iterable[Mapping]) -> list[MatchResult]:
    """Parse the seeds' format: [{"game": g, "<agent>": score, "<agent>": score}, ...]."""
    results = []
    for n, record in enumerate(records):
        if not isinstance(record, Mapping) or not isinstance(record.get("game"), str):
            raise RatingInputError(f"record {n} has no game name")
        seats = [(k, v) for k, v in record.items() if k != "game"]
        if len(seats) < 2:
            raise RatingInputError(f"record {n} names fewer than two agents")
        try:
            scores = tuple(float(v) for _, v in seats)
        except (TypeError, ValueError):
            raise RatingInputError(f"record {n} has a non-numeric score") from None
        results.append(MatchResult(record["game"], tuple(k for k, _ in seats), scores))
    return results


def load_seed_file(path: str | Path) -> list[MatchResult]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as err:
        raise RatingInputError(f"cannot read {path}: {err}") from None
    if not isinstance(data, list):
        raise RatingInputError(f"{path} must hold a JSON list of match records")
    return from_seed_records(data)
