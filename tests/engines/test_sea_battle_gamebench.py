"""Sea Battle's ``gamebench_resolution`` against GameBench's own code (Joshuaclymer/GameBench, games/sea_battle.py,
``SeaBattle.move_ships`` and ``fire_cannons``), above all where two ships share a cell, which GameBench's
movement lets happen.

GameBench checks its live ships one after another and moves each at once. A ship's rivals for a cell are the other
ships afloat at that moment that claim the same cell, but "other" is decided by comparing positions (its ``Player``
objects are equal when their locations are), so a ship standing on the checked ship's own cell is never its rival.
The reference below is written for this test from that rule, on its own data (complex cells and headings), and is
compared with the engine on seeded random positions crowded enough for shared cells, rocks, rams and sinkings.
"""

from __future__ import annotations

import random

from gameplay.engines.sea_battle import SeaBattleGame, SeaBattleState
from gameplay.engines.sea_battle.board import ORDER_IDS, SIZE, Ship, resolve_turn

FAR = [("R3", 0, 20, 18, "N"), ("B3", 1, 20, 4, "N")]  # far off, staying and firing into open water
POSITIONS = 3000
BATTLES = 40


def position(ships: list[tuple], rocks: tuple = ()) -> SeaBattleState:
    state = SeaBattleGame({"gamebench_resolution": True}).new_initial_state(0)
    state.ships = [Ship(*s) for s in ships]
    state.rocks = sorted(rocks)
    return state


def play_turn(state: SeaBattleState, orders: dict[str, str]) -> None:
    turn = state.turn
    for seat in (0, 1):
        while seat in state.current_seats() and state.turn == turn:
            state.apply_action(seat, orders.get(state.next_ship(seat).id, "stay_L"))


def where(state: SeaBattleState, ship_id: str) -> tuple:
    ship = next(s for s in state.ships if s.id == ship_id)
    return ship.cell, ship.heading, ship.damage


# --- the reference: GameBench's rule, written independently of the engine -----------------------------------

COMPASS = {"E": 1, "N": 1j, "W": -1, "S": -1j}
LETTER = {v: k for k, v in COMPASS.items()}
TURN = {"left": 1j, "right": -1j}


def gamebench_turn(ships: list[tuple], orders: dict[str, str], rocks: set) -> list[tuple]:
    """One turn as GameBench's code plays it; ``ships`` as (id, team, x, y, heading, damage) in fleet order.
    Returns the ships afloat afterwards in the same form."""
    sea = [{"id": i, "team": t, "at": complex(x, y), "head": COMPASS[h], "dmg": d,
            "move": orders[i].split("_")[0], "gun": orders[i].split("_")[1]} for i, t, x, y, h, d in ships]

    def rock(cell: complex) -> bool:
        x, y = int(cell.real), int(cell.imag)
        return x in (0, SIZE - 1) or y in (0, SIZE - 1) or (x, y) in rocks

    def afloat() -> list[dict]:
        return [s for s in sea if s["dmg"] < 10]

    def rivalled(s: dict) -> bool:  # afloat now, standing elsewhere now, claiming the same cell
        return any(t["claim"] == s["claim"] and t["at"] != s["at"] for t in afloat())

    for first_square in (True, False):
        for s in afloat():
            goes = s["move"] != "stay" if first_square else s["move"] in TURN
            s["claim"] = s["at"] + s["head"] if goes else s["at"]
        for s in afloat():  # the list is taken once; each ship moves as soon as it is checked
            if rock(s["claim"]):
                s["dmg"] += 1
            elif rivalled(s):
                s["dmg"] += 1 if first_square else 0
            else:
                s["at"] = s["claim"]
        if first_square:
            for s in afloat():
                s["head"] *= TURN.get(s["move"], 1)
    for s in afloat():  # every ship afloat after moving fires, even one sunk earlier in the volley
        cell, side = s["at"], s["head"] * (1j if s["gun"] == "L" else -1j)
        for _ in range(3):
            cell += side
            if rock(cell):
                break
            target = next((t for t in afloat() if t["at"] == cell), None)
            if target is not None:
                target["dmg"] += 2
                break
    return [(s["id"], s["team"], int(s["at"].real), int(s["at"].imag), LETTER[s["head"]], s["dmg"])
            for s in afloat()]


def random_position(rng: random.Random) -> tuple[list[tuple], dict[str, str], set]:
    """Two to six ships in a 5 x 5 corner of the sea, drawn with replacement so that some share a cell, a few
    interior rocks, damage often near sinking, and random orders."""
    ids = sorted(rng.sample(["R1", "R2", "R3", "B1", "B2", "B3"], rng.randint(2, 6)), key=lambda i: (i[0] == "B", i))
    corner = [(x, y) for x in range(1, 6) for y in range(1, 6)]
    ships = [(i, int(i[0] == "B"), *rng.choice(corner), rng.choice("ENWS"), rng.choice([0, 0, 0, 7, 8, 9]))
             for i in ids]
    free = [c for c in corner if c not in {(s[2], s[3]) for s in ships}]
    rocks = set(rng.sample(free, min(len(free), rng.randint(0, 3))))
    return ships, {i: rng.choice(ORDER_IDS) for i in ids}, rocks


def engine_turn(ships: list[tuple], orders: dict[str, str], rocks: set) -> list[tuple]:
    afloat, _ = resolve_turn([Ship(*s) for s in ships], orders, set(rocks), gamebench=True)
    return [tuple(s.to_json()) for s in afloat]


# --- positions built by hand ------------------------------------------------------------------------------


def test_two_ships_left_on_one_cell_do_not_ram_each_other_when_both_stay():
    # Turn 1 (GameBench's overlap): B1 sails into a rock and stays, R1 follows it onto (6,5).
    state = position([("R1", 0, 5, 5, "E"), ("B1", 1, 6, 5, "E"), *FAR], rocks=[(7, 5)])
    play_turn(state, {"R1": "forward_L", "B1": "forward_L"})
    assert where(state, "R1") == ((6, 5), "E", 0) and where(state, "B1") == ((6, 5), "E", 1)
    # Turn 2: both stay, so both claim (6,5); each passes over the other, which stands on its own cell: no ram.
    play_turn(state, {"R1": "stay_L", "B1": "stay_L"})  # both fire North into open water
    assert where(state, "R1") == ((6, 5), "E", 0) and where(state, "B1") == ((6, 5), "E", 1)
    assert state.report["bumps"] == []


def test_two_ships_on_one_cell_sailing_the_same_way_the_first_goes_and_the_second_rams_it():
    # R1 is checked first: B1 stands on its cell, so R1 has no rival and sails to (6,6) at once. B1 is checked next:
    # R1 now stands elsewhere and claims B1's cell ahead, so B1 rams (+1) and stays.
    state = position([("R1", 0, 6, 5, "N"), ("B1", 1, 6, 5, "N"), *FAR])
    play_turn(state, {"R1": "forward_L", "B1": "forward_L"})  # both fire West into open water
    assert where(state, "R1") == ((6, 6), "N", 0)
    assert where(state, "B1") == ((6, 5), "N", 1)
    assert state.report["bumps"] == [["B1", "ram"]]


def test_a_third_ship_sailing_onto_a_shared_cell_rams_both_of_its_ships():
    # Only a ship on the checked ship's own cell is passed over: B2 comes from elsewhere, so all three take 1.
    state = position([("R1", 0, 6, 5, "E"), ("B1", 1, 6, 5, "E"), ("B2", 1, 6, 4, "N"), *FAR])
    play_turn(state, {"R1": "stay_L", "B1": "stay_L", "B2": "forward_R"})  # R1, B1 fire North; B2 East
    assert [where(state, i)[2] for i in ("R1", "B1", "B2")] == [1, 1, 1]
    assert where(state, "B2")[0] == (6, 4)


def test_the_reference_agrees_with_the_hand_built_positions():
    ships = [("R1", 0, 6, 5, "N", 0), ("B1", 1, 6, 5, "N", 0)]
    assert gamebench_turn(ships, {"R1": "forward_L", "B1": "forward_L"}, set()) == [
        ("R1", 0, 6, 6, "N", 0), ("B1", 1, 6, 5, "N", 1)]
    ships = [("R1", 0, 6, 5, "E", 0), ("B1", 1, 6, 5, "E", 1)]
    assert gamebench_turn(ships, {"R1": "stay_L", "B1": "stay_L"}, set()) == ships


# --- seeded random positions -------------------------------------------------------------------------------


def test_the_engine_resolves_random_positions_exactly_as_gamebench():
    rng = random.Random(40)
    differ, shared = [], 0
    for _ in range(POSITIONS):
        ships, orders, rocks = random_position(rng)
        shared += len({(s[2], s[3]) for s in ships}) < len(ships)
        expected = gamebench_turn(ships, orders, rocks)
        if engine_turn(ships, orders, rocks) != expected:
            differ.append((ships, orders, sorted(rocks)))
    assert shared > POSITIONS // 5  # the draw really does put ships on one cell
    assert not differ, f"{len(differ)} of {POSITIONS} positions differ from GameBench; first: {differ[0]}"


def test_the_engine_follows_gamebench_through_whole_random_battles():
    """Positions reached in play (each from a real opening; shared cells arise only from GameBench's own
    movement), turn by turn until one fleet is left or 100 turns have passed."""
    turns, differ, overlaps = 0, [], 0
    for seed in range(BATTLES):
        state, rng = SeaBattleGame().new_initial_state(seed), random.Random(seed)
        ships, rocks = [tuple(s.to_json()) for s in state.ships], set(state.rocks)
        for _ in range(100):
            if len({s[1] for s in ships}) < 2:
                break
            orders = {s[0]: rng.choice(ORDER_IDS) for s in ships}
            expected = gamebench_turn(ships, orders, rocks)
            if engine_turn(ships, orders, rocks) != expected:
                differ.append((seed, ships, orders))
            ships, turns = expected, turns + 1
            overlaps += len({(s[2], s[3]) for s in ships}) < len(ships)
    assert overlaps > 0  # GameBench's movement did put two ships on one cell in these battles
    assert not differ, f"{len(differ)} of {turns} turns differ from GameBench; first: {differ[0]}"
