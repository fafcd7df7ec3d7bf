"""Seeded random playouts of Two Rooms and a Boom shared by the golden tests: the text an LLM reads (observation
text, action labels) and the board a page draws must stay what they were before the engine's observation gained
its facts. Each playout yields the state before every step (and the final one), with the step about to be taken.

``digest`` turns one step's JSON-able record into a short stable hash, so a golden file holds one line per step.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

from gameplay.engines.two_rooms_and_a_boom import TwoRoomsGame

# (seats, options, seed): the default game at 6, 7 (a Gambler) and 10 seats, 13 seats (2 hostages, so more than 12
# hostage choices), the GameBench variant, and longer parleys with a smaller talk budget.
PLAYOUTS = (
    (6, {}, 0),
    (7, {}, 1),
    (10, {}, 2),
    (13, {}, 3),
    (6, {"gamebench_simplified": True}, 4),
    (8, {"parley_messages": 2, "talk_budget": 2}, 5),
)

# Messages the playouts send: plain, markup, and words that imitate the engine's own sentences (a page reading
# facts must not be fooled by them).
MESSAGES = (
    "hello",
    "a <b>word</b>",
    "let us share.",
    'I said to the room: "trust me"',
    "Player 2 and Player 3 privately showed each other their cards.",
    "You revealed your card to Room A.",
    "Hostage exchange after round 1: nobody",
    "  spaced   out  ",
)


def playout_key(seats: int, options: dict, seed: int) -> str:
    return f"{seats}:{json.dumps(options, sort_keys=True)}:{seed}"


def steps(seats: int, options: dict, seed: int) -> Iterator[tuple[object, tuple[int, str, str | None] | None]]:
    """(state, move) before each move and (state, None) at the end; the state must only be read."""
    state = TwoRoomsGame(options, seats).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        texts = state.text_actions(seat)
        if texts and rng.random() < 0.3:
            move = (seat, rng.choice(texts).id, rng.choice(MESSAGES))
        else:
            move = (seat, rng.choice(state.legal_actions(seat)).id, None)
        yield state, move
        state.apply_action(*move)
    yield state, None


def viewers(state) -> list[int | None]:
    return [*range(state.game.num_seats), None]


def digest(record) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def load_golden(path: Path) -> dict[str, list[str]]:
    return json.loads(path.read_text(encoding="utf-8"))


def write_golden(path: Path, record_of) -> None:
    """Write the golden file: for each playout, ``digest(record_of(state, move))`` per step."""
    golden = {playout_key(*p): [digest(record_of(state, move)) for state, move in steps(*p)] for p in PLAYOUTS}
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(golden, indent=0) + "\n", encoding="utf-8")
