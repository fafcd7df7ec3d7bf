"""Strength levels of the search agent, by budget: what people choose between ("Search, level 3").

Levels 1-4 are counts of simulations (2, 20, 300 and 1,500: about ten times more a level from 1 to 3, so that
adjacent levels rate apart in the round robin of ``manage.py search_ladder``), so a level plays the same move for the
same seed on any machine; each is also stopped after a time well inside the platform's decision deadline, in case a
game's simulations are slow on a loaded machine (the search then stops early and says so in the move's note). Level
5 thinks for about a second. Level 3 is the default: it beats random play in nearly every two-seat game at well under
a second a move here (``manage.py bench_search`` measures both).
"""

from __future__ import annotations

from .mcts import Budget

LEVELS: dict[int, Budget] = {
    1: Budget(simulations=2, seconds=0.25),
    2: Budget(simulations=20, seconds=0.4),
    3: Budget(simulations=300, seconds=0.6),
    4: Budget(simulations=1500, seconds=0.9),
    5: Budget(simulations=100_000, seconds=1.0),
}
DEFAULT_LEVEL = 3


def level_name(level: int) -> str:
    return f"search-{level}"


def level_label(level: int) -> str:
    return f"Search, level {level}"
