"""Sea Battle's geometry and its turn resolution, as plain functions on plain data (no state object).

Cells are (x, y) with x growing East and y growing North; the outer ring of the 24 x 24 grid is rock. A ship is a
small mutable record; ``resolve_turn`` moves, damages, fires and sinks the live ships for one set of orders and
reports what happened, so the state only has to keep ships, rocks and the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIZE = 24
INTERIOR_ROCKS = 14
SINK_AT = 10
RAM_DAMAGE = 1
ROCK_DAMAGE = 1
BALL_DAMAGE = 2
BALL_RANGE = 3

# Headings by letter; "north" is increasing y, as in GameBench.
HEADINGS: dict[str, tuple[int, int]] = {"E": (1, 0), "N": (0, 1), "W": (-1, 0), "S": (0, -1)}
HEADING_NAMES = {"E": "East", "N": "North", "W": "West", "S": "South"}
LETTER_OF = {vector: letter for letter, vector in HEADINGS.items()}

MOVES = ("left", "forward", "right", "stay")
SIDES = ("L", "R")  # L fires to port (the heading turned left), R to starboard
ORDER_IDS = tuple(f"{move}_{side}" for move in MOVES for side in SIDES)

Cell = tuple[int, int]


def turn_left(heading: str) -> str:
    dx, dy = HEADINGS[heading]
    return LETTER_OF[(-dy, dx)]


def turn_right(heading: str) -> str:
    dx, dy = HEADINGS[heading]
    return LETTER_OF[(dy, -dx)]


def ahead(cell: Cell, heading: str, steps: int = 1) -> Cell:
    dx, dy = HEADINGS[heading]
    return (cell[0] + dx * steps, cell[1] + dy * steps)


def is_border(cell: Cell) -> bool:
    x, y = cell
    return x <= 0 or y <= 0 or x >= SIZE - 1 or y >= SIZE - 1


def split_order(order: str) -> tuple[str, str]:
    move, side = order.split("_")
    return move, side


def gun_heading(heading: str, side: str) -> str:
    return turn_left(heading) if side == "L" else turn_right(heading)


def course_past_rocks(cell: Cell, heading: str, move: str, rocks: frozenset[Cell]) -> tuple[Cell, str, int]:
    """Where a move ends when only rocks are in the way (other ships' moves are secret until the turn resolves),
    the heading it ends with, and the rock damage it takes: a step into rock is not taken, the turn still is."""
    damage = 0
    steps = {"stay": (), "forward": (None,), "left": (None, turn_left), "right": (None, turn_right)}[move]
    for turn in steps:
        if turn is not None:
            heading = turn(heading)
        if _rocky(ahead(cell, heading), rocks):
            damage += ROCK_DAMAGE
        else:
            cell = ahead(cell, heading)
    return cell, heading, damage


@dataclass
class Ship:
    id: str  # e.g. "R2": team letter and number
    team: int
    x: int
    y: int
    heading: str
    damage: int = 0

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)

    def to_json(self) -> list:
        return [self.id, self.team, self.x, self.y, self.heading, self.damage]

    @classmethod
    def from_json(cls, data) -> Ship:
        return cls(str(data[0]), int(data[1]), int(data[2]), int(data[3]), str(data[4]), int(data[5]))


@dataclass
class Report:
    """What one resolved turn did, in the order it happened (all of it public once the turn resolves)."""

    orders: dict[str, str] = field(default_factory=dict)
    moves: list[tuple[str, Cell, Cell]] = field(default_factory=list)  # ship, from, to (over the whole turn)
    bumps: list[tuple[str, str]] = field(default_factory=list)  # ship, "rock" / "ram" / "blocked"
    shots: list[tuple[str, Cell, Cell, str | None]] = field(default_factory=list)  # shooter, from, last cell, hit
    sunk: list[str] = field(default_factory=list)


def _rocky(cell: Cell, rocks: set[Cell]) -> bool:
    return is_border(cell) or cell in rocks


def _settle(claims: dict[str, Cell], position: dict[str, Cell], free: set[str]) -> set[str]:
    """The ships of ``free`` (each claiming an uncontested cell) that really move: a claim fails while its cell is
    held by a ship that does not leave it, repeated until nothing changes (so chains of blocked ships stop behind
    each other, and two ships never end on one cell)."""
    moving = set(free)
    changed = True
    while changed:
        changed = False
        for ship in sorted(moving):
            holder = next((other for other, cell in position.items() if cell == claims[ship] and other != ship), None)
            if holder is not None and holder not in moving:
                moving.discard(ship)
                changed = True
    return moving


def _step(ships: list[Ship], movers: set[str], rocks: set[Cell], report: Report, *, ram_damage: int) -> None:
    """One square of movement for the ships in ``movers``; every other ship claims the cell it is on. All claims
    are weighed at once and settled as a fixed point (``_settle``)."""
    position = {s.id: s.cell for s in ships}
    claims = {s.id: ahead(s.cell, s.heading) if s.id in movers else s.cell for s in ships}
    by_id = {s.id: s for s in ships}
    free = set()
    for ship in ships:
        claim = claims[ship.id]
        if _rocky(claim, rocks):
            ship.damage += ROCK_DAMAGE
            report.bumps.append((ship.id, "rock"))
            continue
        rivals = [o for o in ships if o.id != ship.id and claims[o.id] == claim]
        # Two ships heading into each other's cells meet on the way (GameBench let them pass through).
        swapped = any(
            claims[o.id] == ship.cell and o.id in movers and ship.id in movers and o.cell == claim for o in ships
        )
        if rivals or swapped:
            if ram_damage:
                ship.damage += ram_damage
                report.bumps.append((ship.id, "ram"))
            elif ship.id in movers:
                report.bumps.append((ship.id, "blocked"))
            continue
        if ship.id in movers:
            free.add(ship.id)
    moving = _settle(claims, position, free)
    for ship_id in sorted(free - moving):
        report.bumps.append((ship_id, "blocked"))
    for ship_id in moving:
        ship = by_id[ship_id]
        ship.x, ship.y = claims[ship_id]


def _gamebench_step(ships: list[Ship], movers: set[str], rocks: set[Cell], report: Report, *, ram_damage: int
                    ) -> None:
    """One square of movement as GameBench's code makes it (games/sea_battle.py, ``SeaBattle.move_ships``, steps
    2 and 5). Every ship afloat claims its cell ahead if it is in ``movers``, else its own cell. Then the ships are
    checked one by one in fleet order, each moving as soon as it is checked: a claim on rock costs ROCK_DAMAGE and
    the ship stays; otherwise its rivals are the ships still afloat at that moment (one sunk earlier in the loop no
    longer counts) that claim the same cell and stand on another cell than the checked ship does at that moment.
    GameBench tells "another ship" by position (its ``Player`` objects compare equal when their locations do), so
    a ship sharing the checked ship's cell is never its rival, and one that has just sailed off that cell is. A
    rival costs ``ram_damage`` (the first square; none on the second) and the ship stays; with none it moves."""
    claims = {s.id: ahead(s.cell, s.heading) if s.id in movers else s.cell for s in ships}
    for ship in ships:
        claim = claims[ship.id]
        if _rocky(claim, rocks):
            ship.damage += ROCK_DAMAGE
            report.bumps.append((ship.id, "rock"))
            continue
        if any(claims[o.id] == claim and o.cell != ship.cell and o.damage < SINK_AT for o in ships):
            if ram_damage:
                ship.damage += ram_damage
                report.bumps.append((ship.id, "ram"))
            elif ship.id in movers:
                report.bumps.append((ship.id, "blocked"))
            continue
        ship.x, ship.y = claim


def _trace(shooter: Ship, side: str, ships: list[Ship], rocks: set[Cell]) -> tuple[Cell, Ship | None]:
    """The last cell a ball reaches (up to its range) and the ship it hits, if any, among ``ships``."""
    heading = gun_heading(shooter.heading, side)
    at: dict[Cell, Ship] = {}
    for ship in ships:
        at.setdefault(ship.cell, ship)  # GameBench's overlapping ships: the first in order takes the ball
    cell = shooter.cell
    for _ in range(BALL_RANGE):
        cell = ahead(cell, heading)
        if _rocky(cell, rocks):
            return cell, None
        if cell in at and at[cell] is not shooter:
            return cell, at[cell]
    return cell, None


def _volley(ships: list[Ship], orders: dict[str, str], rocks: set[Cell], report: Report) -> list[Ship]:
    """All balls fly at once: hits are found first, then the damage lands, then ships sink."""
    hits = []
    for ship in ships:
        end, hit = _trace(ship, split_order(orders[ship.id])[1], ships, rocks)
        report.shots.append((ship.id, ship.cell, end, hit.id if hit else None))
        if hit is not None:
            hits.append(hit)
    for target in hits:
        target.damage += BALL_DAMAGE
    return _sink(ships, report)


def _gamebench_volley(ships: list[Ship], orders: dict[str, str], rocks: set[Cell], report: Report) -> list[Ship]:
    """GameBench's order: ships fire one after another (each that was afloat when the volley began, even one sunk
    by an earlier ball), and a ship sinks the moment its damage reaches the threshold, so later balls pass through
    its cell."""
    afloat = list(ships)
    for shooter in ships:
        end, hit = _trace(shooter, split_order(orders[shooter.id])[1], afloat, rocks)
        report.shots.append((shooter.id, shooter.cell, end, hit.id if hit else None))
        if hit is not None:
            hit.damage += BALL_DAMAGE
            if hit.damage >= SINK_AT:
                afloat.remove(hit)
                report.sunk.append(hit.id)
    return afloat


def _sink(ships: list[Ship], report: Report) -> list[Ship]:
    afloat = []
    for ship in ships:
        if ship.damage >= SINK_AT:
            report.sunk.append(ship.id)
        else:
            afloat.append(ship)
    return afloat


def resolve_turn(ships: list[Ship], orders: dict[str, str], rocks: set[Cell], *, gamebench: bool = False
                 ) -> tuple[list[Ship], Report]:
    """Play one turn: orders (ship id -> order id) for every live ship. Returns the ships still afloat (ships
    are changed in place; a ship sinks as soon as its damage reaches SINK_AT) and the report. ``gamebench``
    resolves as GameBench's code (games/sea_battle.py) did: ``_gamebench_step`` for each square of movement and
    ``_gamebench_volley`` for the shots."""
    report = Report(orders=dict(orders))
    start = {s.id: s.cell for s in ships}
    everyone = list(ships)
    movers = {s.id for s in ships if split_order(orders[s.id])[0] != "stay"}
    step = _gamebench_step if gamebench else _step
    step(ships, movers, rocks, report, ram_damage=RAM_DAMAGE)
    # A ship that strikes its tenth point of damage while moving goes down at once (as in GameBench): it does
    # not turn, sail on, block the second step or fire.
    ships = _sink(ships, report)
    turners = {s.id for s in ships if split_order(orders[s.id])[0] in ("left", "right")}
    for ship in ships:
        if ship.id in turners:
            ship.heading = turn_left(ship.heading) if orders[ship.id].startswith("left") else turn_right(ship.heading)
    step(ships, turners, rocks, report, ram_damage=0)
    ships = _sink(ships, report)
    report.moves = [(s.id, start[s.id], s.cell) for s in everyone if s.cell != start[s.id]]
    afloat = _gamebench_volley(ships, orders, rocks, report) if gamebench else _volley(ships, orders, rocks, report)
    return afloat, report
