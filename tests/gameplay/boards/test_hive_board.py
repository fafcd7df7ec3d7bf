"""Hive's board presenter (gameplay/boards/hive.py) draws each top piece over the engine's PNG as a bug picture: on
the engine's hand-made positions (picture_samples.py), every occupied cell gets one drawn piece of the right owner,
bug and number at the picture's own centre, a stack keeps its height and its "on …" note, the last move and a
surrounded queen are outlined again over the drawing, and the legend lists the bugs the match plays with."""

from __future__ import annotations

from gameplay.boards.hive import drawn_pieces, legend, marks
from gameplay.engines.hive.picture_layout import layout
from gameplay.engines.hive.picture_samples import sample_observation


def test_every_occupied_cell_is_drawn_once_with_its_top_piece_where_the_png_has_it():
    data = sample_observation("middle")
    geometry = layout(data)
    pieces = {p["cell"]: p for p in drawn_pieces(geometry)}
    occupied = {c["name"]: c for c in geometry["cells"] if c["occupied"]}
    assert set(pieces) == set(occupied)
    for name, cell in occupied.items():
        piece = pieces[name]
        assert (piece["x"], piece["y"], piece["radius"]) == (cell["x"], cell["y"], geometry["radius"])
        assert piece["color"] + piece["bug"] + piece["number"] == cell["top"]
        assert piece["label"] == cell["label"]
    beetle = pieces["1,0"]  # White's beetle on Black's spider
    assert (beetle["bug"], beetle["color"], beetle["number"], beetle["height"]) == ("B", "w", "1", 2)
    assert (beetle["under"], beetle["under_color"]) == ("on bS1", "b")
    assert beetle["under_width"] > 0 and abs(beetle["under_x"] + beetle["under_width"] / 2) < 0.001  # centred
    queen = pieces["-1,1"]
    assert (queen["bug"], queen["number"], queen["under"]) == ("Q", "", "")


def test_the_last_move_and_a_surrounded_queen_are_outlined_again():
    middle = sample_observation("middle")
    found = {m["kind"]: m for m in marks(layout(middle), middle)}
    assert set(found) == {"from", "to"}  # no queen is surrounded
    cells = {c["name"]: c for c in layout(middle)["cells"]}
    assert (found["to"]["x"], found["to"]["y"]) == (cells["1,0"]["x"], cells["1,0"]["y"])
    assert (found["from"]["x"], found["from"]["y"]) == (cells["0,1"]["x"], cells["0,1"]["y"])
    end = sample_observation("end")
    surrounded = [m for m in marks(layout(end), end) if m["kind"] == "surrounded"]
    cells = {c["name"]: c for c in layout(end)["cells"]}
    assert [(m["x"], m["y"]) for m in surrounded] == [(cells["1,0"]["x"], cells["1,0"]["y"])]  # Black's queen


def test_the_legend_names_the_bugs_in_play():
    base = sample_observation("start")
    assert [b["name"] for b in legend(base)] == ["queen", "beetle", "grasshopper", "spider", "ant"]
    expansions = {**base, "expansions": "MP"}
    assert [b["bug"] for b in legend(expansions)] == ["Q", "B", "G", "S", "A", "M", "P"]
    no_beetles = {**base, "hands": {c: [h for h in hand if h[0] != "B"] for c, hand in base["hands"].items()}}
    assert "B" not in [b["bug"] for b in legend(no_beetles)]
