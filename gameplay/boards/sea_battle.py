"""Sea Battle's board presenter: the page's drawing of one seat view (``layout``), SVG geometry for the sea, ships,
the last turn's shots and the current ship's choices, plus the order pad. Built from the view's facts alone, so it
can show no more than the viewer may see. SVG rows grow downwards, so cell (x, y) is drawn at column x, row 23 - y.
The sailing rules themselves (where a move ends past rocks, where the guns point) are the engine's pure functions,
called rather than copied so the pad can never promise a course the engine would not sail."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameplay.boards.base import BoardPresenter
from gameplay.engines.sea_battle.board import HEADING_NAMES, HEADINGS, MOVES, SIZE, course_past_rocks, gun_heading
from gameplay.engines.sea_battle.text import MOVE_SHORT, report_lines
from gameplay.engines.seat_view import SeatView

# A ship's outline facing North (bow up), in cell units around the centre of its cell
HULL = ((0.0, -0.62), (0.4, -0.08), (0.34, 0.5), (-0.34, 0.5), (-0.4, -0.08))  # a little over a cell: legible
ARROWS = {"left": "↰", "forward": "↑", "right": "↱", "stay": "•"}


def _centre(x: int, y: int) -> tuple[float, float]:
    return (x + 0.5, SIZE - 1 - y + 0.5)


def _hull(x: int, y: int, heading: str) -> str:
    cx, cy = _centre(x, y)
    dx, dy = HEADINGS[heading]
    # Screen vector of the heading is (dx, -dy); rotate the North-facing outline onto it.
    fx, fy = dx, -dy  # bow direction on screen
    points = []
    for px, py in HULL:
        # the outline's "up" (0, -1) maps to (fx, fy); its "right" (1, 0) maps to (-fy, fx)
        sx = cx + px * (-fy) + (-py) * fx
        sy = cy + px * fx + (-py) * fy
        points.append(f"{sx:.2f},{sy:.2f}")
    return " ".join(points)


def _ball_path(x: int, y: int, heading: str, side: str) -> list[tuple[float, float]]:
    aim = HEADINGS[gun_heading(heading, side)]
    return [_centre(x + aim[0] * k, y + aim[1] * k) for k in (1, 2, 3)]


def layout_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """The drawing of one observation's facts (``data``)."""
    seat = data["seat"]
    last = data["last_turn"] or {}
    to_order = data["to_order"]
    ships = []
    for s in data["ships"]:
        cx, cy = _centre(s["x"], s["y"])
        own = seat is not None and s["team"] == seat
        side = "yours" if own else ("enemy" if seat is not None else data["teams"][s["team"]].lower())
        aria = f"{s['id']} ({data['teams'][s['team']]}, {side}) at ({s['x']},{s['y']}) facing " \
               f"{HEADING_NAMES[s['heading']]}"
        if s["id"] in data["damage"]:
            aria += f", damage {data['damage'][s['id']]} of {data['sink_at']}"
        ships.append({"id": s["id"], "team": s["team"], "own": own, "current": s["id"] == to_order,
                      "points": _hull(s["x"], s["y"], s["heading"]), "cx": cx, "cy": cy, "aria": aria,
                      "label": s["id"][1], "x": s["x"], "y": s["y"], "heading": HEADING_NAMES[s["heading"]],
                      "damage": data["damage"].get(s["id"]), "ordered": s["id"] in data["my_orders"]})
    shots = []
    for shooter, start, end, hit in last.get("shots", []):
        (x1, y1), (x2, y2) = _centre(*start), _centre(*end)
        shots.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "hit": hit, "shooter": shooter})
    trails = []
    for _ship, start, end in last.get("moves", []):
        (x1, y1), (x2, y2) = _centre(*start), _centre(*end)
        trails.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2})
    current = next((s for s in data["ships"] if s["id"] == to_order), None)
    choices, guns, pad = [], [], []
    if current is not None:
        cell, heading = (current["x"], current["y"]), current["heading"]
        rocks = frozenset(tuple(r) for r in data["rocks"])
        for move in MOVES:
            # Where the move ends with rocks in the way (a step into rock is not taken), never a rock cell.
            (x, y), end_heading, rock_damage = course_past_rocks(cell, heading, move, rocks)
            cx, cy = _centre(x, y)
            rock = f"strikes rock (+{rock_damage} damage), " if rock_damage else ""
            choices.append({"move": move, "cx": cx, "cy": cy, "mark": ARROWS[move]})
            pad.append({"move": move, "name": MOVE_SHORT[move].capitalize(), "arrow": ARROWS[move],
                        "to": f"({x},{y}) {HEADING_NAMES[end_heading]}" + (" · rock!" if rock_damage else ""),
                        "orders": [{"id": f"{move}_{side}",
                                    "aria": f"{current['id']}: {MOVE_SHORT[move]}, {rock}"
                                            f"{'at' if move == 'stay' or (x, y) == cell else 'to'} ({x},{y}) facing "
                                            f"{HEADING_NAMES[end_heading]}, fire "
                                            f"{'port' if side == 'L' else 'starboard'} toward "
                                            f"{HEADING_NAMES[gun_heading(end_heading, side)]}",
                                    "side": "port" if side == "L" else "starboard"} for side in ("L", "R")]})
        for side in ("L", "R"):
            guns += [{"x": cx - 0.5, "y": cy - 0.5} for cx, cy in _ball_path(*cell, heading, side)]
    rocks = [{"x": x, "y": SIZE - 1 - y} for x, y in data["rocks"]]
    ticks = [{"n": n, "c": n + 0.5, "row": SIZE - 1 - n + 0.5} for n in range(5, SIZE - 1, 5)]
    own_fleet = [s for s in ships if s["own"]]
    enemy_fleet = [s for s in ships if not s["own"]] if seat is not None else []
    return {
        "size": SIZE,
        "edge": SIZE - 1,
        "viewbox": f"0 0 {SIZE} {SIZE}",
        "rocks": rocks,
        "ticks": ticks,
        "tick_y": SIZE - 0.5,
        "enemy_ready": seat is not None and data["status"] == "playing" and data["fleet_ready"][1 - seat],
        "ships": ships,
        "shots": shots,
        "trails": trails,
        "choices": choices,
        "guns": guns,
        "pad": pad,
        "current": to_order,
        "own_fleet": own_fleet,
        "enemy_fleet": enemy_fleet,
        "report": report_lines(last) if last else [],
        "report_turn": last.get("turn"),
        # An order is its action id, "<move>_<L|R>" (e.g. "forward_L"): read by id, never from a sentence.
        "my_orders": [{"ship": ship, "text": f"{MOVE_SHORT[o.partition('_')[0]]} + "
                       f"{'port' if o.endswith('_L') else 'starboard'}"} for ship, o in data["my_orders"].items()],
    }


class SeaBattleBoard(BoardPresenter):
    template = "games/sea_battle/board.html"
    rules_template = "games/sea_battle/rules.html"

    def layout(self, view: SeatView) -> dict[str, Any]:
        return layout_of(view.facts)
