"""The game presets of the engine conformance suite (tests/engines/test_conformance.py), which
tests/gameplay/test_seen_conformance.py plays through the platform too: every registered game at its default options,
every bool option flipped, and its turn timer on; and the options that keep each game's random playouts short."""

from __future__ import annotations

import pytest

from gameplay.engines.registry import GAMES

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

# Options that switch a game's turn timer on (spec.turn_timer; limits are options, mostly off by default), so its limits
# and timeout actions are checked at every decision of a playout. Every game declaring a turn timer names its own here
# (Are You the Traitor?'s Magic Ring clock is on by default; its preset sets another length).
TIMED_PRESETS = {
    "who_is_spy": {"describe_seconds": 30, "vote_seconds": 30},
    "are_you_the_traitor": {"ring_seconds": 30},
}


def option_presets(cls) -> list[tuple[str, dict]]:
    """Default options, plus every bool option flipped, so variants get exercised too; plus the timers on."""
    presets = [("default", {})]
    flipped = {o.name: not o.default for o in cls.spec.options if o.type is bool}
    if flipped:
        presets.append(("bools-flipped", flipped))
    if cls.spec.id in TIMED_PRESETS:
        presets.append(("timed", TIMED_PRESETS[cls.spec.id]))
    return presets


CASES = [
    pytest.param(game_id, options, id=f"{game_id}-{label}")
    for game_id, cls in sorted(GAMES.items())
    for label, options in option_presets(cls)
]
