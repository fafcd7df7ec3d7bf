"""Pure rating library: bootstrapped Bradley–Terry ratings (no Django imports here).

    from rating_app.ratings import rate, RatingConfig, load_seed_file
    report = rate(load_seed_file("fixtures/gamebench_matches.json"), RatingConfig(bootstrap=10_000, seed=0))
"""

LIBRARY_VERSION = "1.1.0"  # 1.1: team results (MatchResult.teams)

from .bootstrap import rate  # noqa: E402
from .ilsr import fit_batch, win_probability  # noqa: E402
from .report import AgentRating, RatingConfig, RatingReport, ScopeRating  # noqa: E402
from .results import MatchResult, RatingInputError, from_seed_records, load_seed_file  # noqa: E402

__all__ = [
    "LIBRARY_VERSION",
    "AgentRating",
    "MatchResult",
    "RatingConfig",
    "RatingInputError",
    "RatingReport",
    "ScopeRating",
    "fit_batch",
    "from_seed_records",
    "load_seed_file",
    "rate",
    "win_probability",
]
