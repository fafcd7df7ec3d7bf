"""Sea Battle in words: order labels, the report of a resolved turn, and the observation text an LLM acts on."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from .board import HEADING_NAMES, SINK_AT, SIZE, course_past_rocks, gun_heading, split_order

MOVE_WORDS = {
    "left": "forward 1, turn left, forward 1",
    "forward": "forward 1",
    "right": "forward 1, turn right, forward 1",
    "stay": "stay",
}
MOVE_SHORT = {"left": "left turn", "forward": "forward", "right": "right turn", "stay": "stay"}
SIDE_WORDS = {"L": "fire port (left)", "R": "fire starboard (right)"}
SIDE_SHORT = {"L": "port", "R": "starboard"}


def order_label(order: str, ship=None, rocks: frozenset = frozenset()) -> str:
    """"forward 1, fire port (left)"; with the ship, where it would end if no other ship is in its way (a move
    into rock is named as such, never as a cell on the rock) and where the ball flies."""
    if ship is None:
        move, side = split_order(order)
        return f"{MOVE_WORDS[move]}, {SIDE_WORDS[side]}"
    return _course_label(order, ship.cell, ship.heading, rocks)


@cache
def _course_label(order: str, start: tuple[int, int], heading: str, rocks: frozenset) -> str:
    move, side = split_order(order)
    words = f"{MOVE_WORDS[move]}, {SIDE_WORDS[side]}"
    (x, y), heading, damage = course_past_rocks(start, heading, move, rocks)
    aim = HEADING_NAMES[gun_heading(heading, side)]
    if damage:
        where = f"strikes rock (+{damage} damage), {'stays' if (x, y) == start else 'ends'} at ({x},{y})"
    else:
        where = f"{'at' if move == 'stay' else 'to'} ({x},{y})"
    return f"{words}: {where} facing {HEADING_NAMES[heading]}, firing {aim}"


def damage_words(ship_id: str, damage: int) -> str:
    """How a ship's damage reads in its own fleet's observation text (a secret of that fleet)."""
    return f"{ship_id} has damage {damage} of {SINK_AT}"


def pending_words(ship_id: str, order: str) -> str:
    """How an order given this turn reads to its own fleet (a secret until the turn resolves)."""
    return f"You ordered {ship_id}: {order_label(order)}"


def order_short(order: str) -> str:
    move, side = split_order(order)
    return f"{MOVE_SHORT[move]} + {SIDE_SHORT[side]}"


def report_lines(report: Mapping[str, Any] | None) -> list[str]:
    """What the last resolved turn did, one sentence per fact."""
    if not report:
        return []
    lines = ["Orders: " + "; ".join(f"{ship} {order_short(order)}" for ship, order in report["orders"]) + "."]
    for ship, start, end in report["moves"]:
        lines.append(f"{ship} sailed from ({start[0]},{start[1]}) to ({end[0]},{end[1]}).")
    bump_words = {"rock": "struck a rock (+1 damage)", "ram": "collided with another ship (+1 damage)",
                  "blocked": "was blocked by another ship"}
    for ship, kind in report["bumps"]:
        lines.append(f"{ship} {bump_words[kind]}.")
    for ship, _start, _end, hit in report["shots"]:
        if hit:
            lines.append(f"{ship}'s cannonball hit {hit} (+2 damage).")
    misses = [ship for ship, _s, _e, hit in report["shots"] if not hit]
    if misses:
        lines.append(f"Missed: {', '.join(misses)}.")
    for ship in report["sunk"]:
        lines.append(f"{ship} sank.")
    return lines


def _map(data: Mapping[str, Any]) -> list[str]:
    """The sea as characters, north (high y) at the top: # rock, . water, ship ids' digits with a letter case
    per side (upper case: your ships or Red's, lower case: the other fleet)."""
    grid = [["." for _ in range(SIZE)] for _ in range(SIZE)]
    for x in range(SIZE):
        for y in (0, SIZE - 1):
            grid[y][x] = grid[x][y] = "#"
    for x, y in data["rocks"]:
        grid[y][x] = "#"
    for ship in data["ships"]:
        mine = ship["mine"] if data["seat"] is not None else ship["team"] == 0
        mark = ship["id"][1]
        grid[ship["y"]][ship["x"]] = ("ABC" if mine else "abc")[int(mark) - 1] if mark in "123" else "?"
    lines = ["    " + "".join(str(x % 10) for x in range(SIZE))]
    for y in range(SIZE - 1, -1, -1):
        lines.append(f"{y:>3} " + "".join(grid[y]))
    return lines


def observation_text(data: Mapping[str, Any]) -> str:
    seat = data["seat"]
    teams = data["teams"]
    lines = [f"Turn {data['turn']} of at most {data['turn_cap']}. The sea is {SIZE}x{SIZE}: x grows East, y grows "
             f"North; the border (x or y = 0 or {SIZE - 1}) is rock."]
    if seat is not None:
        lines.append(f"You command the {teams[seat]} fleet against {teams[1 - seat]}.")
    lines.append("Interior rocks: " + " ".join(f"({x},{y})" for x, y in data["rocks"]) + ".")
    for team, name in enumerate(teams):
        whose = "" if seat is None else (" (yours)" if team == seat else " (enemy)")
        fleet = [s for s in data["ships"] if s["team"] == team]
        entries = []
        for s in fleet:
            entry = f"{s['id']} at ({s['x']},{s['y']}) facing {HEADING_NAMES[s['heading']]}"
            if s["id"] in data["damage"]:
                entry += ", " + damage_words(s["id"], data["damage"][s["id"]])
            entries.append(entry)
        lines.append(f"{name} fleet{whose}: " + ("; ".join(entries) if entries else "all sunk") + ".")
    mine_team = seat if seat is not None else 0
    letters = {mine_team: "ABC", 1 - mine_team: "abc"}
    key = "; ".join(f"{letters[team][n]}={teams[team][0]}{n + 1}" for team in (mine_team, 1 - mine_team)
                    for n in range(3))
    lines.append(f"Map (north at the top; # rock, . water; {key}):")
    lines += _map(data)
    if data["last_turn"]:
        lines.append(f"Last turn ({data['last_turn']['turn']}):")
        lines += ["  " + line for line in report_lines(data["last_turn"])]
    for ship_id, order in data["my_orders"].items():
        lines.append(pending_words(ship_id, order) + ".")
    if data["to_order"]:
        lines.append(f"Now give {data['to_order']} its order.")
    if seat is not None and data["status"] == "playing" and data["fleet_ready"][1 - seat]:
        lines.append(f"{teams[1 - seat]} has given all its orders for this turn (hidden until yours are in).")
    if data["result"]:
        lines.append(data["result"])
    return "\n".join(lines)
