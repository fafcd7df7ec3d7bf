"""Hand-made Hive observations in the engine's format, for the render benchmark, tests and looking at pictures:
"start" (2 pieces), "middle" (12, a beetle on a spider) and "end" (22, Black's queen surrounded)."""

from __future__ import annotations

_FULL_HAND = [["Q", 1], ["S", 2], ["B", 2], ["G", 3], ["A", 3]]


def _piece(ident: str, q: int, r: int, height: int = 0, top: bool = True) -> dict:
    return {"id": ident, "color": ident[0], "bug": ident[1], "q": q, "r": r, "height": height, "top": top}


def _hands(placed: list[str]) -> dict:
    hands = {}
    for colour in "wb":
        hands[colour] = []
        for bug, count in _FULL_HAND:
            used = sum(1 for p in placed if p[0] == colour and p[1] == bug)
            hands[colour].append([bug, count - used])
    return hands


def sample_observation(kind: str) -> dict:
    """A hand-made observation in the engine's format: "start" (2 pieces), "middle" (12, a beetle
    on a spider) or "end" (22, Black's queen surrounded)."""
    if kind == "start":
        pieces = [_piece("wS1", 0, 0), _piece("bS1", 1, 0)]
        extra = {"to_move": 0, "turn": 3, "last_move": "bS1 wS1-", "last_from": None, "last_to": [1, 0]}
    elif kind == "middle":
        pieces = [
            _piece("wS1", 0, 0), _piece("bS1", 1, 0, 0, False), _piece("wB1", 1, 0, 1), _piece("wQ", -1, 1),
            _piece("bQ", 2, -1), _piece("wA1", -1, 0), _piece("bA1", 2, 0), _piece("bG1", 3, -1),
            _piece("wG1", -2, 1), _piece("bB1", 1, 1), _piece("wA2", 0, -1), _piece("bA2", 3, -2),
        ]
        extra = {"to_move": 1, "turn": 13, "last_move": "wB1 bS1", "last_from": [0, 1], "last_to": [1, 0]}
    elif kind == "end":
        pieces = [
            _piece("bQ", 1, 0), _piece("wS1", 0, 0), _piece("wA1", 2, 0), _piece("bS1", 2, -1),
            _piece("bB1", 1, -1, 0, False), _piece("wB1", 1, -1, 1), _piece("wG1", 1, 1), _piece("bA1", 0, 1),
            _piece("wQ", -1, 0), _piece("bG1", -1, 1), _piece("wS2", -2, 0), _piece("bS2", 3, -1),
            _piece("bG2", 3, -2), _piece("bA2", 2, -2), _piece("wG2", 0, -1), _piece("bG3", -1, 2),
            _piece("wA2", 2, 1), _piece("bB2", 1, 2), _piece("wG3", 0, 2), _piece("wB2", -2, 1),
            _piece("bA3", 4, -2), _piece("wA3", 3, 0),
        ]
        extra = {"to_move": None, "turn": 45, "last_move": "wA1 bQ-", "last_from": [-3, 1], "last_to": [2, 0],
                 "status": "WhiteWins", "result": "White wins: Black's queen is surrounded."}
    else:
        raise ValueError(f"unknown sample {kind!r}; known: start, middle, end")
    data = {
        "pieces": pieces,
        "hands": _hands([p["id"] for p in pieces]),
        "to_move": None,
        "you": 0,
        "turn": 1,
        "last_move": None,
        "last_from": None,
        "last_to": None,
        "status": "InProgress",
        "game_string": "Base;InProgress;White[1]",
        "expansions": "",
        "pinned": [],
        "result": None,
    }
    data.update(extra)
    return data
