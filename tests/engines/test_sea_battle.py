"""Sea Battle engine: the fact sheet's test facts on known positions, the variant options, hidden orders and
damage, and seeded random playouts with invariants (no shared cells, scores, round trips, replays)."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.registry import create_game
from gameplay.engines.sea_battle import SeaBattleGame, SeaBattleState
from gameplay.engines.sea_battle.board import ORDER_IDS, Ship

from .conformance import check_observation_leaks, check_playouts, check_round_trip
from .sea_battle_support import play_turn, position

# Harmless filler: a far-off ship that stays and fires into open water.
FAR = {"R": ("R3", 0, 20, 18, "N"), "B": ("B3", 1, 20, 4, "N")}


def ship(state: SeaBattleState, ship_id: str) -> Ship:
    return next(s for s in state.ships if s.id == ship_id)


def test_fact1_forward_moves_one_cell_ahead():
    state = position([("R1", 0, 5, 5, "E"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "forward_L"})
    assert (ship(state, "R1").cell, ship(state, "R1").heading) == ((6, 5), "E")


@pytest.mark.parametrize("order,cell,heading", [("left_L", (6, 6), "N"), ("right_R", (6, 4), "S")])
def test_fact2_turns_move_forward_turn_and_forward_again(order, cell, heading):
    state = position([("R1", 0, 5, 5, "E"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": order})
    assert (ship(state, "R1").cell, ship(state, "R1").heading) == (cell, heading)


def test_fact3_sailing_into_the_border_rock_stays_and_takes_one_damage():
    state = position([("R1", 0, 1, 5, "W"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "forward_R"})  # starboard of West is North: open water
    assert ship(state, "R1").cell == (1, 5)
    assert ship(state, "R1").damage == 1


def test_fact4_two_ships_claiming_one_cell_each_take_one_damage_and_stay():
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 7, 5, "W"), FAR["R"], FAR["B"]])
    # Both fire along the y axis (port of East is North, port of West is South): no ball hits anyone.
    play_turn(state, {"R1": "forward_L", "B1": "forward_L"})
    assert (ship(state, "R1").cell, ship(state, "B1").cell) == ((5, 5), (7, 5))
    assert (ship(state, "R1").damage, ship(state, "B1").damage) == (1, 1)


def test_fact4_a_ship_sailing_into_a_staying_ship_rams_it():
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 6, 5, "N"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "forward_L", "B1": "stay_R"})  # B1 fires East, R1 North: both miss
    assert (ship(state, "R1").cell, ship(state, "B1").cell) == ((5, 5), (6, 5))
    assert (ship(state, "R1").damage, ship(state, "B1").damage) == (1, 1)


@pytest.mark.parametrize("distance,hit", [(3, True), (4, False)])
def test_fact5_port_of_north_is_decreasing_x_with_range_three(distance, hit):
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 10 - distance, 10, "N"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})  # B1 fires West too, away from R1
    assert ship(state, "B1").damage == (2 if hit else 0)
    assert ship(state, "R1").damage == 0
    shot = next(s for s in state.report["shots"] if s[0] == "R1")
    assert shot[2] == [10 - min(distance, 3), 10]


def test_fact6_a_rock_stops_the_ball():
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "N"), FAR["R"], FAR["B"]], rocks=[(9, 10)])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})
    assert ship(state, "B1").damage == 0


def test_fact7_friendly_fire_hits_a_teammate():
    state = position([("R1", 0, 10, 10, "N"), ("R2", 0, 8, 10, "N"), FAR["B"]])
    play_turn(state, {"R1": "stay_L", "R2": "stay_L", "B3": "stay_L"})
    assert ship(state, "R2").damage == 2


def test_fact8_a_ship_with_nine_damage_sinks_when_hit_and_leaves_every_later_observation():
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "N", 9), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})
    assert "B1" not in [s.id for s in state.ships]
    assert state.report["sunk"] == ["B1"]
    play_turn(state, {})
    for seat in (0, 1, None):
        observation = state.observation(seat)
        assert "B1" not in [s["id"] for s in observation.data["ships"]]
        assert "B1" not in observation.data["damage"]
        assert "B1 at" not in observation.text
    assert state.legal_actions(1) and state.next_ship(1).id == "B3"


def test_fact9_both_last_ships_sinking_on_one_turn_is_a_draw():
    # R1 fires port (West) at B1; B1 faces South, so its port side is East, toward R1.
    state = position([("R1", 0, 10, 10, "N", 9), ("B1", 1, 8, 10, "S", 9)])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})
    assert state.ships == []
    assert state.is_terminal() and state.scores() == [0.5, 0.5]
    assert "draw" in state.result_text()


def test_fact10_a_ship_behind_a_blocked_ship_does_not_sail_onto_it():
    # B1 sails into a rock and stays; R1 follows it into its cell and must stop behind it.
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 6, 5, "E"), FAR["R"], FAR["B"]], rocks=[(7, 5)])
    play_turn(state, {"R1": "forward_L", "B1": "forward_L"})
    assert (ship(state, "R1").cell, ship(state, "B1").cell) == ((5, 5), (6, 5))
    assert (ship(state, "R1").damage, ship(state, "B1").damage) == (0, 1)


def test_fact10_no_two_live_ships_ever_share_a_cell_in_random_games():
    for seed in range(30):
        state, rng = SeaBattleGame().new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            seat = rng.choice(state.current_seats())
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
            cells = [s.cell for s in state.ships]
            assert len(cells) == len(set(cells)), f"seed {seed}: ships share a cell"


# --- more of the movement rules -----------------------------------------------------------------------------


def test_a_ship_following_a_ship_that_leaves_moves_up():
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 6, 5, "E"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "forward_L", "B1": "forward_L"})
    assert (ship(state, "R1").cell, ship(state, "B1").cell) == ((6, 5), (7, 5))


def test_crossing_ships_collide_by_default_and_pass_through_with_gamebench_resolution():
    ships = [("R1", 0, 5, 5, "E"), ("B1", 1, 6, 5, "W"), FAR["R"], FAR["B"]]
    fixed = position(ships)
    play_turn(fixed, {"R1": "forward_L", "B1": "forward_L"})
    assert (ship(fixed, "R1").cell, ship(fixed, "B1").cell) == ((5, 5), (6, 5))
    assert (ship(fixed, "R1").damage, ship(fixed, "B1").damage) == (1, 1)
    original = position(ships, gamebench_resolution=True)
    play_turn(original, {"R1": "forward_L", "B1": "forward_L"})
    assert (ship(original, "R1").cell, ship(original, "B1").cell) == ((6, 5), (5, 5))
    assert (ship(original, "R1").damage, ship(original, "B1").damage) == (0, 0)


def test_gamebench_resolution_lets_a_ship_sail_onto_a_blocked_ship():
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 6, 5, "E"), FAR["R"], FAR["B"]], rocks=[(7, 5)],
                     gamebench_resolution=True)
    play_turn(state, {"R1": "forward_L", "B1": "forward_L"})
    assert ship(state, "R1").cell == ship(state, "B1").cell == (6, 5)


def test_second_step_contest_blocks_without_damage():
    # R1 turns left at (5,5)->(6,5) facing North and wants (6,6); B1 stays on (6,6).
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 6, 6, "E"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "left_R", "B1": "stay_L"})  # R1 fires East, B1 North: no hits
    assert (ship(state, "R1").cell, ship(state, "R1").heading) == ((6, 5), "N")
    assert (ship(state, "R1").damage, ship(state, "B1").damage) == (0, 0)


def test_a_turning_ship_blocked_on_its_first_cell_still_turns():
    state = position([("R1", 0, 1, 5, "W"), FAR["R"], FAR["B"]])
    play_turn(state, {"R1": "right_R"})  # rock ahead: +1, turn to North, then sail to (1,6)
    assert (ship(state, "R1").cell, ship(state, "R1").heading, ship(state, "R1").damage) == ((1, 6), "N", 1)


def test_all_balls_fly_at_once_by_default_but_in_turn_with_gamebench_resolution():
    # R1 sinks B1 (9 damage); B2's ball then flies South through B1's cell toward R2.
    ships = [("R1", 0, 10, 10, "N"), ("R2", 0, 9, 9, "N"), ("B1", 1, 9, 10, "E", 9), ("B2", 1, 9, 12, "E"),
             FAR["B"]]
    orders = {"R1": "stay_L", "R2": "stay_R", "B1": "stay_L", "B2": "stay_R"}
    fixed = position(ships)
    play_turn(fixed, orders)
    assert ship(fixed, "R2").damage == 0  # B2's ball hit B1, which was still afloat
    assert "B1" in fixed.report["sunk"]
    original = position(ships, gamebench_resolution=True)
    play_turn(original, orders)
    assert ship(original, "R2").damage == 2  # B1 sank mid-volley and the ball passed through its cell
    assert any(s[0] == "B1" for s in original.report["shots"])  # a ship sunk in the volley still fires


@pytest.mark.parametrize("gamebench", [False, True])
def test_a_ship_sunk_by_a_rock_while_moving_sinks_at_once_and_does_not_fire(gamebench):
    # R1 (9 damage) sails West into the border rock: 10 damage. As in GameBench it goes down at once, in both
    # resolutions: removed from the sea, and its ball (port of West is South, toward B1 at (1,3)) never flies.
    state = position([("R1", 0, 1, 5, "W", 9), ("B1", 1, 1, 3, "N"), FAR["R"], FAR["B"]],
                     gamebench_resolution=gamebench)
    play_turn(state, {"R1": "forward_L", "B1": "stay_L"})
    assert "R1" not in [s.id for s in state.ships]
    assert state.report["sunk"] == ["R1"]
    assert ship(state, "B1").damage == 0
    assert "R1" not in [shot[0] for shot in state.report["shots"]]


def test_a_ship_sunk_by_a_ram_on_the_first_step_no_longer_blocks_the_second():
    # R1 (9 damage) stays at (6,6); B2 sails South into it: both take 1 and R1 sinks at once. R2 (East at (5,5),
    # left) reaches (6,5), turns North and sails on into (6,6), which R1 no longer holds.
    ships = [("R1", 0, 6, 6, "N", 9), ("R2", 0, 5, 5, "E"), ("B2", 1, 6, 7, "S"), FAR["B"]]
    orders = {"R1": "stay_L", "R2": "left_L", "B2": "forward_L"}
    state = position(ships)
    play_turn(state, orders)
    assert "R1" in state.report["sunk"] and "R1" not in [s.id for s in state.ships]
    assert ship(state, "R2").cell == (6, 6)
    assert ship(state, "B2").cell == (6, 7) and ship(state, "B2").damage == 1
    # GameBench checks ships one by one against the ships still afloat: R1 sinks before B2 is checked, so B2 meets
    # no one, takes no damage and sails into (6,6), where it blocks R2's second cell.
    original = position(ships, gamebench_resolution=True)
    play_turn(original, orders)
    assert "R1" in original.report["sunk"] and "R1" not in [s.id for s in original.ships]
    assert ship(original, "B2").cell == (6, 6) and ship(original, "B2").damage == 0
    assert ship(original, "R2").cell == (6, 5)


# --- turn structure, hidden information, results -------------------------------------------------------------


def test_each_seat_orders_its_ships_one_at_a_time_and_the_turn_waits_for_both():
    state = SeaBattleGame().new_initial_state(3)
    assert state.current_seats() == [0, 1]
    assert [a.id for a in state.legal_actions(0)] == list(ORDER_IDS)
    assert state.legal_actions(0)[0].label.startswith("R1: ")
    for _ in range(3):
        state.apply_action(0, "stay_L")
    assert state.current_seats() == [1] and state.turn == 1
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "stay_L")
    for _ in range(3):
        state.apply_action(1, "stay_R")
    assert state.turn == 2 and state.current_seats() == [0, 1] and state.report["turn"] == 1


def test_pending_orders_and_damage_stay_hidden_from_the_other_fleet():
    state = position([("R1", 0, 10, 10, "N", 4), ("R2", 0, 3, 3, "E"), ("B1", 1, 15, 15, "S", 7)])
    state.apply_action(0, "right_R")
    labels = state.action_labels(0, "left_L")
    assert "left" not in labels.by_seat[1] and "left" not in labels.public
    assert "You ordered R2" in labels.by_seat[0]
    red, blue, public = state.observation(0), state.observation(1), state.observation(None)
    assert red.data["my_orders"] == {"R1": "right_R"} and blue.data["my_orders"] == {}
    assert red.data["damage"] == {"R1": 4, "R2": 0} and blue.data["damage"] == {"B1": 7}
    assert "right" not in blue.text.split("Map")[0] and "damage 4" not in blue.text
    assert public.data["damage"] == {} and public.data["my_orders"] == {}
    check_observation_leaks(state)
    assert state.secrets()[0] and state.secrets()[1]


def test_the_order_completing_a_turn_tells_everyone_all_orders():
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 15, 15, "S")])
    state.apply_action(0, "right_R")
    labels = state.action_labels(1, "left_L")
    assert labels.public == labels.by_seat[0] == labels.by_seat[1]
    assert "R1 right turn + starboard" in labels.public and "B1 left turn + port" in labels.public


def test_last_fleet_afloat_wins():
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "N", 9)])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})
    assert state.is_terminal() and state.scores() == [1.0, 0.0] and state.winner() == 0
    assert state.measures(0) == {"turns": 1, "ships_afloat": 1, "enemy_ships_sunk": 3, "ended_at_cap": False}


@pytest.mark.parametrize("red_damage,scores", [(0, [0.5, 0.5]), (3, [0.0, 1.0])])
def test_turn_cap_ends_the_game_by_ships_then_damage(red_damage, scores):
    state = position([("R1", 0, 10, 10, "N", red_damage), ("B1", 1, 15, 15, "N")], turn_cap=2)
    play_turn(state, {})
    assert not state.is_terminal()
    play_turn(state, {})
    assert state.is_terminal() and state.scores() == scores and state.measures(1)["ended_at_cap"]
    assert "turn cap" in state.result_text()


def test_turn_cap_more_ships_afloat_wins_before_damage():
    state = position([("R1", 0, 10, 10, "N", 8), ("R2", 0, 3, 3, "N", 8), ("B1", 1, 15, 15, "N")], turn_cap=1)
    play_turn(state, {})
    assert state.scores() == [1.0, 0.0]


def test_turn_cap_option_is_validated_and_bounds_actions():
    with pytest.raises(InvalidOptionsError):
        SeaBattleGame({"turn_cap": 0})
    with pytest.raises(InvalidOptionsError):
        SeaBattleGame({"turn_cap": 5000})
    assert SeaBattleGame({"turn_cap": 7}).max_actions() == 42
    assert create_game("sea_battle").options == {"turn_cap": 100, "gamebench_resolution": False}


def test_setup_deals_six_ships_and_fourteen_interior_rocks_on_distinct_cells():
    for seed in range(20):
        state = SeaBattleGame().new_initial_state(seed)
        cells = [s.cell for s in state.ships] + state.rocks
        assert len(state.ships) == 6 and len(state.rocks) == 14 and len(set(cells)) == 20
        assert all(1 <= x <= 22 and 1 <= y <= 22 for x, y in cells)
        assert [s.id for s in state.ships] == ["R1", "R2", "R3", "B1", "B2", "B3"]
    assert SeaBattleGame().new_initial_state(5).to_json() == SeaBattleGame().new_initial_state(5).to_json()
    assert SeaBattleGame().new_initial_state(5).rocks != SeaBattleGame().new_initial_state(6).rocks


def test_random_playouts_keep_their_invariants():
    game = SeaBattleGame()
    for seed in range(12):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            assert len(state.log) < game.max_actions()
            seat = rng.choice(state.current_seats())
            state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
            assert all(s.damage < 10 for s in state.ships)
            if len(state.log) % 11 == 0:
                state = check_round_trip(state)
        assert abs(sum(state.scores()) - 1) < 1e-9
        assert json.dumps(game.replay(seed, state.log).to_json()) == json.dumps(state.to_json())
        assert state.result_text()


@pytest.mark.parametrize("options,n", [({"turn_cap": 1}, 20), ({"turn_cap": 300}, 4),
                                       ({"turn_cap": 300, "gamebench_resolution": True}, 2)])
def test_conformance_with_other_turn_caps(options, n):
    """The conformance suite runs at a short cap (FAST_PLAYOUTS); these run whole battles and the shortest cap."""
    finals = check_playouts(lambda: SeaBattleGame(options), n_playouts=n, base_seed=500)
    assert all(state.is_terminal() for state in finals)


def test_observation_text_for_a_seat():
    """(The page's drawing of the same view: tests/gameplay/boards/test_sea_battle_layout.py.)"""
    game = SeaBattleGame()
    state = game.new_initial_state(2)
    text = state.observation(0).text
    assert "You command the Red fleet" in text and "Now give R1 its order." in text
    assert "R1 has damage 0 of 10" in text and "B1 has damage" not in text


def test_order_labels_say_when_a_move_strikes_rock_instead_of_naming_a_rock_cell():
    # R1 at (1,5) faces the West border. Forward would "reach" (0,5), a rock: it stays and takes 1 damage. A left
    # turn strikes the rock on its first cell, still turns South and sails on to (1,4). Staying reads "at".
    state = position([("R1", 0, 1, 5, "W"), ("B1", 1, 10, 10, "N")])
    labels = {a.id: a.label for a in state.legal_actions(0)}
    assert labels["forward_L"] == "R1: forward 1, fire port (left): strikes rock (+1 damage), stays at (1,5) " \
                                  "facing West, firing South"
    assert labels["left_R"].endswith(": strikes rock (+1 damage), ends at (1,4) facing South, firing West")
    assert labels["stay_L"].endswith(": at (1,5) facing West, firing South")
    open_water = position([("R1", 0, 5, 5, "E"), ("B1", 1, 10, 10, "N")])
    left = next(a.label for a in open_water.legal_actions(0) if a.id == "left_L")
    assert left.endswith(": to (6,6) facing North, firing West")
    # (The order pad says the same: tests/gameplay/boards/test_sea_battle_layout.py.)


# --- why the battle ended (State.end_reason), and the damage revealed at the end ------------------------------


def test_end_reason_the_last_fleet_afloat():
    state = position([("R1", 0, 10, 10, "N"), ("B1", 1, 8, 10, "N", 9)])
    assert state.end_reason() is None
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})
    assert state.end_reason() == "The last Blue ship sank on turn 1; Red still has 1 ship afloat."
    assert state.result_text() == "Red wins: the last fleet afloat."


def test_end_reason_both_fleets_sunk_on_one_turn():
    state = position([("R1", 0, 10, 10, "N", 9), ("B1", 1, 8, 10, "S", 9)])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})
    assert state.scores() == [0.5, 0.5]
    assert state.end_reason() == "The last ships of both fleets sank on turn 1."


def test_end_reason_at_the_turn_cap_names_the_tiebreak():
    more = position([("R1", 0, 10, 10, "N", 8), ("R2", 0, 3, 3, "N", 8), ("B1", 1, 15, 15, "N")], turn_cap=1)
    play_turn(more, {})
    assert more.scores() == [1.0, 0.0]
    assert more.end_reason() == "The turn cap of 1 turn was reached; Red has more ships afloat (2 to 1)."
    assert more.result_text() == "The turn cap of 1 turn was reached; Red has more ships afloat (2 to 1). Red wins."
    less = position([("R1", 0, 10, 10, "N", 3), ("B1", 1, 15, 15, "N")], turn_cap=2)
    play_turn(less, {})
    assert less.end_reason() is None
    play_turn(less, {})
    assert less.scores() == [0.0, 1.0]
    assert less.end_reason() == ("The turn cap of 2 turns was reached with 1 ship afloat each; Blue's fleet has less "
                                 "total damage (0 to 3).")
    assert less.result_text().endswith(" Blue wins.")
    level = position([("R1", 0, 10, 10, "N"), ("B1", 1, 15, 15, "N")], turn_cap=2)
    play_turn(level, {})
    play_turn(level, {})
    assert level.scores() == [0.5, 0.5]
    assert level.end_reason() == ("The turn cap of 2 turns was reached with 1 ship afloat each and equal total "
                                  "damage (0 each).")
    assert level.result_text().endswith(" A draw.")


def test_every_ships_damage_is_revealed_once_the_battle_is_over():
    state = position([("R1", 0, 10, 10, "N", 3), ("B1", 1, 15, 15, "N", 1)], turn_cap=1)
    assert state.observation(0).data["damage"] == {"R1": 3}
    play_turn(state, {})
    assert state.is_terminal()
    for seat in (0, 1, None):
        observation = state.observation(seat)
        assert observation.data["damage"] == {"R1": 3, "B1": 1}
        assert "R1 has damage 3 of 10" in observation.text and "B1 has damage 1 of 10" in observation.text
    assert state.secrets() == {0: [], 1: []}
    check_observation_leaks(state)
