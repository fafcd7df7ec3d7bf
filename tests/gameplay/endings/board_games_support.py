"""The endings of the board games, each way Santorini, Hive, Gnomes at Night, Sea Battle, Air, Land & Sea and Atari
Boxing end by their rules as an Ending from a position just before it: test_board_games.py plays them through the
platform, test_every_game_covered.py checks that they cover every game."""

from __future__ import annotations

import json
from functools import cache

from gameplay.engines.atari_boxing import BoxingGame
from gameplay.engines.hive import HiveGame
from tests.engines.air_land_sea_support import act as als_act
from tests.engines.air_land_sea_support import position as als_position
from tests.engines.atari_boxing_support import scripted_vs_still
from tests.engines.gnomes_support import ROUND1_PATH, new_state, play
from tests.engines.hive_helpers import BLACK_WIN_MOVES, DRAW_MOVES, WIN_MOVES
from tests.engines.hive_helpers import position as hive_position
from tests.engines.santorini_support import STUCK_A, THREE_TO_THREE
from tests.engines.santorini_support import position as santorini_position
from tests.engines.sea_battle_support import play_turn
from tests.engines.sea_battle_support import position as sea_position

from .support import Ending

# --- Santorini -------------------------------------------------------------------------------------------------

CLIMB = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 2A 3. 0. 0.
0. 0. 0. 0. 0.
0a 0b 0. 0. 0B
"""
# Seat 0's move to d2 and build on c1 close seat 1's last way out (tests/engines/test_santorini_rules.py).
LAST_WAY_OUT = """
0. 0. 0. 0. 0B
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
2. 2. 2. 0. 0.
0a 0b 1. 0A 0.
"""
QUIET = """
0. 0. 0. 0. 0.
0. 0. 0. 0. 0.
0. 0A 0. 0. 0.
0. 0. 0. 0. 0.
0a 0b 0. 0. 0B
"""


def santorini_no_legal_move():
    state = santorini_position(LAST_WAY_OUT)
    state.apply_action(0, "move:d1-d2")
    return state


SANTORINI = [
    Ending("santorini-climb-to-level-3", "santorini", lambda: santorini_position(CLIMB), ((0, "move:b3-c3"),),
           (0,), "moved up from level 2 onto level 3 on C3"),
    Ending("santorini-level-3-to-level-3-variant", "santorini",
           lambda: santorini_position(THREE_TO_THREE, win_on_any_level3=True), ((0, "move:b3-c3"),),
           (0,), "moved from level 3 onto level 3 on C3, which wins in this variant"),
    Ending("santorini-no-legal-move", "santorini", santorini_no_legal_move, ((0, "build:c1"),),
           (0,), "Player 2 had no legal move: both workers were blocked in."),
    Ending("santorini-due-worker-blocked-alternate-workers", "santorini",
           lambda: santorini_position(STUCK_A, alternate_workers=True), ((0, "move:d1-d2"), (0, "build:d1")),
           (0,), "worker a on A2, the one due to move this turn, was blocked in"),
    Ending("santorini-turn-cap", "santorini",
           lambda: santorini_position(QUIET, to_move=1, turns_taken=(2, 1), max_turns=4),
           ((1, "move:a1-a2"), (1, "build:a3")), (), "The turn cap of 4 turns was reached with no winner."),
]

# --- Hive --------------------------------------------------------------------------------------------------------


def hive_turn_limit():
    state = HiveGame({"max_turns": 6}).new_initial_state(0)
    for move in ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ"]:
        state.apply_action(state.current_seats()[0], move)
    return state


HIVE = [
    Ending("hive-black-queen-surrounded", "hive", lambda: hive_position(WIN_MOVES), ((0, "wA1 \\bB1"),),
           (0,), "Black's queen is surrounded on all six sides."),
    Ending("hive-white-queen-surrounded", "hive", lambda: hive_position(BLACK_WIN_MOVES[:-1]),
           ((1, BLACK_WIN_MOVES[-1]),), (1,), "White's queen is surrounded on all six sides."),
    Ending("hive-both-queens-surrounded", "hive", lambda: hive_position(DRAW_MOVES), ((0, "wA1 wQ\\"),),
           (), "Both queens were surrounded by the same move."),
    Ending("hive-turn-limit", "hive", hive_turn_limit, ((1, "bA1 bQ-"),),
           (), "The turn limit of 6 turns was reached with no winner."),
]

# --- Gnomes at Night (cooperative: the status line is the game's sentence) -----------------------------------------

GNOMES = [
    Ending("gnomes-treasure-found", "gnomes", lambda: play(new_state(), ROUND1_PATH[:-1]), ((0, "right"),),
           None, "Treasure found in 5 turns (1 wall hit).", says="Treasure found"),
    Ending("gnomes-turn-cap", "gnomes", lambda: play(new_state(turn_cap=5), ["down", "up", "down", "up"]),
           ((0, "stay"),), None, "the 5-move turn cap was reached without finding the treasure",
           says="Out of turns"),
]

# --- Sea Battle (orders are simultaneous: a turn ends with the last order of both fleets) --------------------------


def sea_after_a_turn(ships, **options):
    state = sea_position(ships, **options)
    play_turn(state, {})
    return state


STAY = (0, "stay_L"), (1, "stay_L")
SEA_BATTLE = [
    Ending("sea_battle-last-fleet-afloat", "sea_battle",
           lambda: sea_position([("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "N", 9)]), STAY,
           (0,), "The last Blue ship sank on turn 1; Red still has 1 ship afloat."),
    Ending("sea_battle-both-fleets-sunk", "sea_battle",
           lambda: sea_position([("R1", 0, 10, 10, "N", 9), ("B1", 1, 8, 10, "S", 9)]), STAY,
           (), "The last ships of both fleets sank on turn 1."),
    Ending("sea_battle-turn-cap-more-ships", "sea_battle",
           lambda: sea_position([("R1", 0, 10, 10, "N", 8), ("R2", 0, 3, 3, "N", 8), ("B1", 1, 15, 15, "N")],
                                turn_cap=1),
           ((0, "stay_L"), (0, "stay_L"), (1, "stay_L")), (0,), "Red has more ships afloat (2 to 1)"),
    Ending("sea_battle-turn-cap-less-damage", "sea_battle",
           lambda: sea_after_a_turn([("R1", 0, 10, 10, "N", 3), ("B1", 1, 15, 15, "N")], turn_cap=2), STAY,
           (1,), "Blue's fleet has less total damage (0 to 3)"),
    Ending("sea_battle-turn-cap-level", "sea_battle",
           lambda: sea_after_a_turn([("R1", 0, 10, 10, "N"), ("B1", 1, 15, 15, "N")], turn_cap=2), STAY,
           (), "with 1 ship afloat each and equal total damage (0 each)"),
]

# --- Air, Land & Sea -----------------------------------------------------------------------------------------------


def als_battle_won():
    state = als_position(first=0, hands=(["A6"], ["S6"]))
    state.vp = [6, 0]
    als_act(state, "play:0:0:up")  # Blue: Heavy Bombers in Air; Red's reply ends the battle
    return state


def als_vp(vp, **options):
    state = als_position(**options)
    state.vp = list(vp)
    return state


CAPPED = dict(hands=(["A6", "A5"], ["S6", "S5"]), action_cap=1)
AIR_LAND_SEA = [
    Ending("air_land_sea-battle-won-to-target", "air_land_sea", als_battle_won, ((1, "play:0:2:up"),),
           (0,), "Blue won battle 1 by holding two or more theaters (+6 VP) and reached the 12 VP target"),
    Ending("air_land_sea-withdrawal-to-target", "air_land_sea",
           lambda: als_vp((0, 7), first=0, hands=([], ["S6"])), ((0, "withdraw"),),
           (1,), "Blue withdrew from battle 1; the 6 VP this gave Red reached the 12 VP target"),
    Ending("air_land_sea-action-cap-more-vp", "air_land_sea", lambda: als_vp((4, 9), **CAPPED),
           ((0, "play:0:0:up"),), (1,), "cap was reached before either side had 12 VP; Red has more VP (9 to 4)."),
    Ending("air_land_sea-action-cap-vp-level", "air_land_sea", lambda: als_vp((3, 3), **CAPPED),
           ((0, "play:0:0:up"),), (), "with the VP level (3 each)."),
    Ending("air_land_sea-action-cap-vp-shares", "air_land_sea",
           lambda: als_vp((4, 9), gamebench_vp_share_scores=True, **CAPPED), ((0, "play:0:0:up"),),
           (1,), "Red has more VP (9 to 4). Each side scores its share of the VP."),
]

# --- Atari Boxing (the emulator plays the frames: the position is the decision point before the last) --------------


@cache
def boxing_before_the_end(options: tuple, policy) -> tuple[dict, tuple]:
    """Play a bout with ``policy(state, seat)`` and return the state before its last decision point (as
    JSON) and that decision's two choices."""
    state = BoxingGame(dict(options)).new_initial_state(0)
    while True:
        before = json.loads(json.dumps(state.to_json()))  # to_json shares the state's lists, which play on
        choices = tuple((seat, policy(state, seat)) for seat in state.current_seats())
        for seat, choice in choices:
            state.apply_action(seat, choice)
        if state.is_terminal():
            return before, choices


def still(state, seat):
    return "noop"


def ten_points_then_still(state, seat):
    """White boxes until it leads by ten points, then both stand still: a lead without a knockout."""
    return scripted_vs_still(state, seat) if state.ringside.scores[0] < 10 else "noop"


def boxing(ending_id, options, policy, winners, reason):
    # Turn-based (live off): the match then keeps the bout's own decision window, and its last decision point is
    # played through the match service like any move. Live, a bout with people is played by the clock
    # (gameplay/live) at its live window (Game.options_for_live_play).
    options = {"live": False, **options}

    def build():
        before, _ = boxing_before_the_end(tuple(sorted(options.items())), policy)
        return BoxingGame(options).state_from_json(before)

    final = lambda: boxing_before_the_end(tuple(sorted(options.items())), policy)[1]  # noqa: E731
    return Ending(ending_id, "atari_boxing", build, final, winners, reason)


# A bout played to the clock: each choice held half a second, so fewer decision points to play through.
LONG_HOLDS = {"frames_per_decision": 30}
ATARI_BOXING = [
    boxing("atari_boxing-knockout", {}, scripted_vs_still, (0,), "White reached 100 points for a knockout"),
    boxing("atari_boxing-clock-ahead-on-points", LONG_HOLDS, ten_points_then_still, (0,),
           "The two-minute clock ran out with White ahead on points"),
    boxing("atari_boxing-clock-level", LONG_HOLDS, still, (),
           "The two-minute clock ran out with the scores level at 0 to 0."),
    boxing("atari_boxing-frame-cap-ahead-on-points", {"max_frames": 1200}, ten_points_then_still, (0,),
           "The 1,200-frame cap was reached with White ahead on points"),
    boxing("atari_boxing-frame-cap-level", {"max_frames": 120}, still, (),
           "The 120-frame cap was reached with the scores level at 0 to 0."),
]

ENDINGS = SANTORINI + HIVE + GNOMES + SEA_BATTLE + AIR_LAND_SEA + ATARI_BOXING
