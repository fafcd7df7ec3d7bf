"""Hive passes the engine conformance suite (seeded random playouts checking the whole contract).

Random games mostly run to the turn cap; a few playouts here run with the default options to the
500-turn hard cap and with the GameBench preset.
"""

from __future__ import annotations

from collections import Counter

from gameplay.engines.hive import HiveGame

from .conformance import check_playouts

MLP = {"mosquito": True, "ladybug": True, "pillbug": True}


def _run(options: dict, n: int, base_seed: int) -> Counter:
    finals = check_playouts(lambda: HiveGame(options), n_playouts=n, base_seed=base_seed)
    assert len(finals) == n and all(state.is_terminal() for state in finals)
    for state in finals:
        assert state.end_reason() == expected_reason(state), state.pos.status
    return Counter(state.pos.status for state in finals)


def expected_reason(state) -> str:
    """The end reason of a finished game, from its status and position (the wording of HiveState.end_reason)."""
    pos = state.pos
    if pos.status == "WhiteWins":
        return "Black's queen is surrounded on all six sides."
    if pos.status == "BlackWins":
        return "White's queen is surrounded on all six sides."
    if pos.queen_surrounded("w") and pos.queen_surrounded("b"):
        return "Both queens were surrounded by the same move."
    assert pos.ply == pos.limit
    return f"The turn limit of {pos.limit} turns was reached with no winner."


# The 200-playout runs (default options and every option on) are in tests/engines/test_conformance.py.


def test_random_games_can_end_by_a_surrounded_queen():
    statuses = _run({"max_turns": 100}, 40, 5000)
    assert statuses["WhiteWins"] + statuses["BlackWins"] > 0


def test_random_games_with_all_expansions_can_end_by_a_surrounded_queen():
    statuses = _run({**MLP, "max_turns": 100}, 40, 6000)
    assert statuses["WhiteWins"] + statuses["BlackWins"] > 0


def test_conformance_default_options_to_the_hard_cap():
    _run({}, 8, 7000)


def test_conformance_gamebench_preset():
    _run({"gamebench": True}, 8, 8000)
