"""Pure rating library: bootstrapped Bradley–Terry ratings (no Django imports here).

    from rating_app.ratings import rate, RatingConfig, load_seed_file
    report = rate(load_seed_file("fixtures/gamebench_matches.json"), RatingConfig(bootstrap=10_000, seed=0))
"""

import importlib

# 1.1: team results (MatchResult.teams); 1.2: RatingConfig.method, "paper" fits every agent in every game's scope
LIBRARY_VERSION = "1.2.0"

# Where each public name lives. They load on first use (PEP 562): the fitting modules need numpy, which the web
# process's every command would otherwise import with the leaderboard's URLs, most of them never rating anything.
_HOMES = {
    "rate": "bootstrap",
    "rating_differences": "differences",
    "RatingDifference": "differences",
    "fit_batch": "ilsr",
    "win_probability": "ilsr",
    "AgentRating": "report",
    "RatingConfig": "report",
    "RatingReport": "report",
    "ScopeRating": "report",
    "MatchResult": "results",
    "RatingInputError": "results",
    "from_seed_records": "results",
    "load_seed_file": "results",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


__all__ = [
    "LIBRARY_VERSION",
    "AgentRating",
    "MatchResult",
    "RatingConfig",
    "RatingDifference",
    "RatingInputError",
    "RatingReport",
    "ScopeRating",
    "fit_batch",
    "from_seed_records",
    "load_seed_file",
    "rate",
    "rating_differences",
    "win_probability",
]
