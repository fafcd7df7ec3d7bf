"""Shared helpers of the Santorini engine tests: a state built from a picture of the board, the legal action ids,
a cell's level, and the known positions other tests (search, endings) start from."""

from __future__ import annotations

from gameplay.engines.santorini import SantoriniGame, SantoriniState

EMPTY = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
"""


def position(board: str, to_move: int = 0, phase: str = "move", turns_taken=(0, 0),
             moved: str | None = None, **options) -> SantoriniState:
    """Build a state from a picture: rows 5..1 top to bottom, columns a..e.

    Each cell is "<level><worker>": worker A/B for seat 0, a/b for seat 1, "."
    for none; "##" is a dome. Loaded through the public JSON path.
    """
    game = SantoriniGame(options)
    rows = [line.split() for line in board.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows)
    levels = [0] * 25
    workers: list[dict[str, str]] = [{}, {}]
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            name = "abcde"[c] + str(5 - r)
            index = (4 - r) * 5 + c
            if token == "##":
                levels[index] = 4
                continue
            levels[index] = int(token[0])
            mark = token[1]
            if mark != ".":
                workers[0 if mark.isupper() else 1][mark.upper()] = name
    data = {
        "game": "santorini", "options": game.options, "num_seats": 2, "seed": 0, "rng_draws": 0,
        "log": [],
        "payload": {
            "levels": levels,
            "workers": [[w[k] for k in sorted(w)] for w in workers],
            "phase": phase, "to_move": to_move, "moved": moved,
            "turns_taken": list(turns_taken), "turn": sum(turns_taken), "winner": None,
            "last_action": None,
        },
    }
    return game.state_from_json(data)


def ids(state, seat=None):
    seat = state.current_seats()[0] if seat is None else seat
    return [a.id for a in state.legal_actions(seat)]


def level(state, name):
    return state.levels["abcde".index(name[0]) + 5 * (int(name[1]) - 1)]


THREE_TO_THREE = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 3A 3. 0. 0.
0. 0. 0. 0. 0.
0a 0b 0. 0. 0B
"""


STUCK_A = """
0. 0. 0. 0. 0b
0. 0. 0. 0. 0.
## ## 0. 0. 0.
0a ## 0. 0. 0.
## ## 0. 0A 0B
"""
