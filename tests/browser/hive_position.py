"""A mid-game Hive position in the browser tests' server (run there with ``manage.py shell``, so it writes to that
server's database): two people's seats, the Mosquito, Ladybug and Pillbug in play, seeded random moves that place
pieces first, with one Beetle climbing onto another piece, so the board shows every bug kind it can and a stack.
Prints the match's seat tokens, White's first, as JSON."""

from __future__ import annotations

import json
import random

from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

OPTIONS = {"mosquito": True, "ladybug": True, "pillbug": True}
PLIES = 22


def climbs(action_id: str) -> bool:
    """A UHP move onto another piece: a Beetle's id, then the other piece's with no side mark."""
    piece, _, target = action_id.partition(" ")
    return piece[1:2] == "B" and bool(target) and not any(mark in target for mark in "-/\\")


def play(seed: int) -> dict | None:
    match = services.create_match("hive", [SeatController("human")] * 2, seed=seed, options=OPTIONS, host_seat=None)
    rng = random.Random(seed)
    climbed = False
    for _ in range(PLIES):
        state = state_of(match)
        if state.is_terminal():
            return None
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        climbing = [a for a in actions if climbs(a.id)]
        placing = [a for a in actions if a.path and a.path[0].startswith("hand:")]
        choice = climbing[0] if climbing and not climbed else rng.choice(placing or actions)
        climbed = climbed or climbs(choice.id)
        match = services.submit_action(match.pk, seat, choice.id, expected_version=match.version)
    state = state_of(match)
    if state.is_terminal() or not climbed:
        return None
    return {"tokens": [match.seats.get(index=i).token for i in (0, 1)], "match": match.pk,
            "bugs": sorted({p["bug"] for p in state.observation(None).data["pieces"]})}


def main() -> None:
    for seed in range(1, 60):
        found = play(seed)
        if found is not None:
            print(json.dumps(found))
            return
    raise SystemExit("no seed gave a running mid-game position with a stack")
