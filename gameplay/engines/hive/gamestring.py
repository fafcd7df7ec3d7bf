"""UHP GameStrings: writing one for a state and rebuilding a state by replaying one."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..api import EngineError, IllegalActionError
from .core import OVER
from .game import HiveGame, HiveState, game_string, normalise_move
from .uhp import parse_game_type

STATES = ("NotStarted", "InProgress", *OVER)
TURN_RE = re.compile(r"^(White|Black)\[(\d+)\]$")

__all__ = ["game_string", "load_game_string"]


def load_game_string(text: str, options: Mapping[str, Any] | None = None, seed: int = 0) -> HiveState:
    """Replay a UHP GameString ("Base+M;InProgress;Black[2];wS1;bM wS1-;...") into a new state.

    The expansions come from the GameTypeString; ``options`` may add others (``max_turns``,
    ``gamebench``). As in the reference engine, the declared GameStateString and TurnString are
    checked for form only: the position is whatever the moves produce. Moves may use any valid
    reference piece; the state's log holds the canonical ids.
    """
    parts = [p.strip() for p in str(text).strip().split(";")]
    if len(parts) < 3:
        raise EngineError(
            f"not a UHP game string: {text!r} (expected GameTypeString;GameStateString;TurnString;moves...)"
        )
    try:
        expansions = parse_game_type(parts[0])
    except IllegalActionError as exc:
        raise EngineError(str(exc)) from None
    if parts[1] not in STATES:
        raise EngineError(f"bad GameStateString {parts[1]!r}: expected one of {', '.join(STATES)}")
    if not TURN_RE.match(parts[2]):
        raise EngineError(f"bad TurnString {parts[2]!r}: expected e.g. White[1] or Black[3]")
    opts = dict(options or {})
    opts.update(mosquito="M" in expansions, ladybug="L" in expansions, pillbug="P" in expansions)
    state = HiveGame(opts).new_initial_state(seed)
    for number, move in enumerate(parts[3:], 1):
        if not move:
            raise IllegalActionError(f"move {number} is empty (a stray ';'?)")
        if state.is_terminal():
            raise IllegalActionError(f"move {number} ({move!r}): the game is already over ({state.pos.status})")
        try:
            action_id = normalise_move(state, move)
        except IllegalActionError as exc:
            raise IllegalActionError(f"move {number} ({move!r}): {exc}") from None
        state.apply_action(state.current_seats()[0], action_id)
    return state
