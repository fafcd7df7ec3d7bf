"""Every registered game passes the engine conformance suite (seeded random playouts), including every
capability its GameSpec declares (labels per viewer, measures, pictures, layouts, typed moves, rounds, chat)."""

from __future__ import annotations

import os

import pytest

from gameplay.engines.registry import GAMES

from .conformance import action_id_text, check_playouts, check_spec

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

# Options added to every preset of a game so 200 random playouts stay quick: random Hive games
# mostly run to the turn cap, so cap them at 100 turns (the default 500-turn cap is exercised in
# tests/engines/test_hive_conformance.py). Random Gnomes walks rarely find the treasure either; 80 moves
# still cross most of the maze (the default cap of 200 is exercised in
# tests/engines/test_gnomes_observations_and_chat.py).
# A Boxing bout runs 476 decision points of 15 frames; 20 decision points of 5 frames keep each playout short (full
# bouts, knockouts and the clock are exercised in tests/engines/test_atari_boxing.py).
# Sea Battle: 6 turns of 6 orders each; random fleets rarely sink each other that soon (whole battles, to a sinking, are
# played in tests/engines/test_sea_battle.py). Random Pit traders almost never corner: 2 hands of 4 ticks each
# (corners, caps and more seats are exercised in tests/engines/test_pit.py).
FAST_PLAYOUTS = {"hive": {"max_turns": 100}, "gnomes": {"turn_cap": 80},
                 "atari_boxing": {"max_frames": 100, "frames_per_decision": 5}, "sea_battle": {"turn_cap": 6},
                 "arctic_scavengers": {"contested_count": 2}, "pit": {"max_hands": 2, "tick_cap": 4}}

# How a legal action is written in the game's typed-move notation (spec.typed_moves), for the parse_move round
# trip; games not named here type an action as its id. Hive's action ids are its canonical UHP move strings.
TYPED_MOVE_TEXT = {"hive": action_id_text}


# Options that switch a game's turn timer on (spec.turn_timer; limits are options, mostly off by default), so its limits
# and timeout actions are checked at every decision of a playout. Every game declaring a turn timer names its own here
# (Are You the Traitor?'s Magic Ring clock is on by default; its preset sets another length).
TIMED_PRESETS = {
    "who_is_spy": {"describe_seconds": 30, "vote_seconds": 30},
    "are_you_the_traitor": {"ring_seconds": 30},
}


def _option_presets(cls) -> list[tuple[str, dict]]:
    """Default options, plus every bool option flipped, so variants get exercised too; plus the timers on."""
    presets = [("default", {})]
    flipped = {o.name: not o.default for o in cls.spec.options if o.type is bool}
    if flipped:
        presets.append(("bools-flipped", flipped))
    if cls.spec.id in TIMED_PRESETS:
        presets.append(("timed", TIMED_PRESETS[cls.spec.id]))
    return presets


def test_every_game_with_a_turn_timer_has_a_timed_preset():
    timed = sorted(game_id for game_id, cls in GAMES.items() if cls.spec.turn_timer)
    assert timed == sorted(TIMED_PRESETS), "name the options that switch each turn timer on in TIMED_PRESETS"


CASES = [
    pytest.param(game_id, options, id=f"{game_id}-{label}")
    for game_id, cls in sorted(GAMES.items())
    for label, options in _option_presets(cls)
]


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
