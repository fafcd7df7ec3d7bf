"""Gnomes at Night layouts: the walls the engine loads are exactly the ones drawn in fixtures/gnomes/mazes.txt."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gameplay.engines.gnomes.layouts import FIXTURE_PATH, default_layouts, load_layouts, parse_layouts, wall_name

DRAWING_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "gnomes" / "mazes.txt"
SIZE = 9


def parse_drawing(side: int) -> tuple[set[str], dict[int, tuple[int, int]]]:
    """Wall names and drawn treasure digits (round -> cell) of one side of the ASCII drawing.

    Row lines look like `` 0   | S     |  ...`` and the lines between rows like ``     +---+   +``; with
    ``base`` the column of a row's left border, cell x's text is at base+1+4x..base+3+4x, its right edge
    at base+4+4x, and in the line below the row its bottom edge is the same three columns.
    """
    lines = DRAWING_PATH.read_text(encoding="utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"Side {side} ")))
    block = lines[start + 1:]
    row_lines = {}
    for i, line in enumerate(block):
        match = re.match(r"^\s*(\d)\s+\|", line)
        if match:
            row_lines[int(match.group(1))] = i
        if len(row_lines) == SIZE:
            break
    assert sorted(row_lines) == list(range(SIZE)), f"could not find the 9 rows of side {side}"
    walls, treasures = set(), {}
    for y, i in row_lines.items():
        row, below = block[i], block[i + 1]
        base = row.index("|")
        assert below[base] == "+", f"side {side} row {y}: the line below is not a wall line"
        for x in range(SIZE):
            text = row[base + 1 + 4 * x: base + 4 + 4 * x]
            digits = [c for c in text if c.isdigit()]
            if digits:
                treasures[int(digits[0])] = (x, y)
            if x < SIZE - 1 and row[base + 4 + 4 * x] == "|":
                walls.add(f"{x},{y}:right")
            if y < SIZE - 1 and below[base + 1 + 4 * x: base + 4 + 4 * x] == "---":
                walls.add(f"{x},{y}:down")
    return walls, treasures


def treasures_line() -> dict[int, tuple[tuple[int, int], int]]:
    """round -> (cell, side) from the drawing's "Treasures" line."""
    text = next(line for line in DRAWING_PATH.read_text(encoding="utf-8").splitlines() if line.startswith("Treasures"))
    found = re.findall(r"round (\d): \((\d), (\d)\) seen by side (\d)", text)
    return {int(r): ((int(x), int(y)), int(s)) for r, x, y, s in found}


@pytest.fixture(scope="module")
def fixture_json() -> dict:
    return json.loads(FIXTURE_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("side", [0, 1])
def test_loaded_walls_equal_the_ascii_drawing(side):
    drawn, _ = parse_drawing(side)
    assert drawn, "the drawing parser found no walls at all"
    assert default_layouts().walls[side] == frozenset(drawn)


@pytest.mark.parametrize("side,expected", [(0, 47), (1, 49)])
def test_wall_counts_match_the_json(fixture_json, side, expected):
    walls = default_layouts().walls[side]
    entry = fixture_json["sides"][side]
    assert len(walls) == entry["n_walls"] == expected
    assert sum(w.endswith(":right") for w in walls) == entry["n_vertical"]
    assert sum(w.endswith(":down") for w in walls) == entry["n_horizontal"]


def test_treasures_match_the_drawing_and_its_treasures_line():
    line = treasures_line()
    assert sorted(line) == [1, 2, 3, 4, 5]
    drawn = {}
    for side in (0, 1):
        for number, cell in parse_drawing(side)[1].items():
            drawn[number] = (cell, side)
    assert drawn == line
    for spec in default_layouts().rounds:
        assert (spec.treasure, spec.seen_by) == line[spec.number]
        assert spec.seen_by == (spec.number - 1) % 2


def test_commented_out_source_walls_are_not_active(fixture_json):
    inactive = fixture_json["commented_out_walls_in_source_not_active"]
    assert len(inactive) == 2
    for entry in inactive:
        name = wall_name(entry["wall"])
        assert name not in default_layouts().walls[entry["side"]]
    assert {wall_name(e["wall"]) for e in inactive} == {"6,1:right", "4,1:down"}


def test_wall_name_converts_one_indexed_pairs():
    assert wall_name({"from": {"x": 2, "y": 1}, "to": {"x": 3, "y": 1}}) == "1,0:right"
    assert wall_name({"from": {"x": 1, "y": 3}, "to": {"x": 1, "y": 4}}) == "0,2:down"
    with pytest.raises(ValueError):
        wall_name({"from": {"x": 2, "y": 1}, "to": {"x": 4, "y": 1}})
    with pytest.raises(ValueError):
        wall_name({"from": {"x": 3, "y": 1}, "to": {"x": 2, "y": 1}})


def test_start_and_size():
    layouts = default_layouts()
    assert layouts.size == SIZE
    assert layouts.start == (0, 0)


def test_parse_layouts_refuses_inconsistent_data(fixture_json):
    broken = json.loads(json.dumps(fixture_json))
    broken["rounds"][1]["treasure_visible_to_side"] = 0
    with pytest.raises(ValueError, match="round 2"):
        parse_layouts(broken)
    broken = json.loads(json.dumps(fixture_json))
    broken["sides"][0]["walls"].pop()
    with pytest.raises(ValueError, match="n_walls"):
        parse_layouts(broken)


def test_load_layouts_reads_the_fixture_file():
    assert load_layouts(FIXTURE_PATH) == default_layouts()
