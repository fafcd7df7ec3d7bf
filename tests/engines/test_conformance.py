"""Every registered game passes the engine conformance suite (seeded random playouts), including every
capability its GameSpec declares (labels per viewer, measures, pictures, layouts, typed moves, rounds, chat)."""

from __future__ import annotations

import os

import pytest

from gameplay.engines.registry import GAMES

from .conformance import action_id_text, check_playouts, check_spec
from .conformance_support import CASES, FAST_PLAYOUTS, TIMED_PRESETS

# CI plays 100 seeded random playouts of every preset; CONFORMANCE_PLAYOUTS=200 (or more) plays the full count, as
# before an engine change lands: CONFORMANCE_PLAYOUTS=200 .venv/bin/pytest tests/engines/test_conformance.py
# (Every check still runs on every preset; on this project's 2-core CI machine the 200 took over 700 s of CPU.)
N_PLAYOUTS = int(os.environ.get("CONFORMANCE_PLAYOUTS", "100"))
# Games whose playouts cost the most play 40 of them in CI (unless CONFORMANCE_PLAYOUTS is set): Hive has its own
# conformance file besides (tests/engines/test_hive_conformance.py, every expansion, games to the hard cap, games
# ending by a surrounded queen), and a Boxing playout runs the emulator frame by frame (30-60 s a preset for 100).
COSTLY_PLAYOUTS = {"hive": 40, "atari_boxing": 40}


def playouts_of(game_id: str) -> int:
    if "CONFORMANCE_PLAYOUTS" in os.environ:
        return N_PLAYOUTS
    return min(N_PLAYOUTS, COSTLY_PLAYOUTS.get(game_id, N_PLAYOUTS))

# How a legal action is written in the game's typed-move notation (spec.typed_moves), for the parse_move round
# trip; games not named here type an action as its id. Hive's action ids are its canonical UHP move strings.
TYPED_MOVE_TEXT = {"hive": action_id_text}


def test_every_game_with_a_turn_timer_has_a_timed_preset():
    timed = sorted(game_id for game_id, cls in GAMES.items() if cls.spec.turn_timer)
    assert timed == sorted(TIMED_PRESETS), "name the options that switch each turn timer on in TIMED_PRESETS"


@pytest.mark.parametrize("game_id,options", CASES)
def test_random_playouts_conform(game_id, options):
    cls = GAMES[game_id]
    options = {**options, **FAST_PLAYOUTS.get(game_id, {})}
    finals = check_playouts(lambda: cls(options), n_playouts=playouts_of(game_id), base_seed=1000,
                            text_of=TYPED_MOVE_TEXT.get(game_id, action_id_text))
    assert len(finals) == playouts_of(game_id)
    assert all(state.is_terminal() for state in finals)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_spec_is_consistent(game_id):
    cls = GAMES[game_id]
    game = cls()
    assert cls.spec.id == game_id
    assert cls.spec.min_seats <= game.num_seats <= cls.spec.max_seats
    assert game.max_actions() > 0
    assert cls.rules.summary
    for name in cls.rules.topics:
        assert cls.rules.topic(name)
    check_spec(game)


@pytest.mark.parametrize("game_id,options", CASES)
def test_declared_capabilities_hold_for_every_preset(game_id, options):
    """Game-level hooks with each preset: chat as declared (and as the options say), rounds, measures."""
    game = GAMES[game_id](options)
    check_spec(game)
    state = game.new_initial_state(0)
    declared = {m.name for m in game.spec.measures}
    assert declared, f"{game_id} declares no measures"
    assert all(set(state.measures(seat)) == declared for seat in range(game.num_seats))
