"""The Hive board picture (gameplay/engines/hive/render.py, drawn on picture_layout.py's geometry): valid,
deterministic PNGs drawn from the observation data alone, and a layout that lines up with the picture for the
clickable overlay."""

from __future__ import annotations

import copy
import io
import random
import re

import pytest
from PIL import Image

from gameplay.engines.api import Observation
from gameplay.engines.hive.picture_layout import NEIGHBOURS, describe, layout, observation_layout
from gameplay.engines.hive.picture_samples import sample_observation
from gameplay.engines.hive.render import observation_png, render_png

SAMPLES = ("start", "middle", "end")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def image_of(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def expected_cells(data: dict) -> set[tuple[int, int]]:
    occupied = {(p["q"], p["r"]) for p in data["pieces"]}
    if not occupied:
        return {(0, 0)}
    ring = {(q + dq, r + dr) for q, r in occupied for dq, dr in NEIGHBOURS}
    return occupied | ring


def cell_by_name(geo: dict, name: str) -> dict:
    return next(c for c in geo["cells"] if c["name"] == name)


@pytest.mark.parametrize("kind", SAMPLES)
def test_png_is_valid_with_a_sane_size_matching_the_layout(kind):
    data = sample_observation(kind)
    png = render_png(data)
    img = image_of(png)
    geo = layout(data)
    assert img.size == (geo["width"], geo["height"])
    assert 300 <= geo["width"] <= 900 and 300 <= geo["height"] <= 900
    assert 2_000 < len(png) < 300_000


@pytest.mark.parametrize("kind", SAMPLES)
def test_rendering_is_deterministic(kind):
    data = sample_observation(kind)
    assert render_png(data) == render_png(copy.deepcopy(data))
    assert render_png(data, coords=True) == render_png(data, coords=True)
    assert render_png(data, coords=True) != render_png(data)
    assert layout(data) == layout(copy.deepcopy(data))


@pytest.mark.parametrize("kind", SAMPLES)
def test_layout_has_one_cell_per_occupied_and_neighbouring_cell_inside_the_image(kind):
    data = sample_observation(kind)
    geo = layout(data)
    names = [c["name"] for c in geo["cells"]]
    assert len(names) == len(set(names))
    assert {(c["q"], c["r"]) for c in geo["cells"]} == expected_cells(data)
    assert all(re.fullmatch(r"-?\d+,-?\d+", n) for n in names)
    stacks = {(p["q"], p["r"]) for p in data["pieces"]}
    assert sum(c["occupied"] for c in geo["cells"]) == len(stacks)
    assert sum(c["height"] for c in geo["cells"]) == len(data["pieces"])
    for c in geo["cells"]:
        assert 0 < c["x"] < geo["width"] and 0 < c["y"] < geo["height"]
        points = [tuple(map(float, p.split(","))) for p in c["points"].split()]
        assert len(points) == 6
        assert all(0 <= x <= geo["width"] and 0 <= y <= geo["height"] for x, y in points)
        # A regular pointy-top hexagon of the layout's radius around the centre.
        assert all(abs(((x - c["x"]) ** 2 + (y - c["y"]) ** 2) ** 0.5 - geo["radius"]) < 0.2 for x, y in points)
        assert min(points, key=lambda p: p[1])[0] == pytest.approx(c["x"], abs=0.11)  # a corner at the top


def test_neighbouring_centres_follow_the_axial_directions():
    geo = layout(sample_observation("middle"))
    r = geo["radius"]
    o = cell_by_name(geo, "0,0")
    for name, dx, dy in [("1,0", 3**0.5, 0), ("-1,0", -(3**0.5), 0), ("1,-1", 3**0.5 / 2, -1.5),
                         ("0,-1", -(3**0.5) / 2, -1.5), ("0,1", 3**0.5 / 2, 1.5), ("-1,1", -(3**0.5) / 2, 1.5)]:
        c = cell_by_name(geo, name)
        assert c["x"] - o["x"] == pytest.approx(dx * r, abs=0.3)
        assert c["y"] - o["y"] == pytest.approx(dy * r, abs=0.3)


def test_the_picture_lines_up_with_the_layout():
    """Sampled pixels: white pieces light, black pieces dark, empty cells the faint fill, the last move outlined."""
    data = sample_observation("end")
    img = image_of(render_png(data))
    geo = layout(data)
    r = geo["radius"]
    for c in geo["cells"]:
        x, y = c["x"] - 0.5 * r, c["y"]  # between the letter and the bug-coloured ring
        red, green, blue = img.getpixel((round(x), round(y)))
        brightness = (red + green + blue) / 3
        if not c["occupied"]:
            assert 200 < brightness < 240, c
        elif c["top"].startswith("w"):
            assert brightness > 235, c
        else:
            assert brightness < 60, c
    # The last move's destination (2,0) is outlined in magenta at its top corner.
    to = cell_by_name(geo, "2,0")
    red, green, blue = img.getpixel((round(to["x"]), round(to["y"] - 0.97 * r)))
    assert red > 150 and green < 120 and blue > 90


def test_pieces_underneath_a_stack_are_in_the_layout_and_its_label():
    geo = layout(sample_observation("middle"))
    stack = cell_by_name(geo, "1,0")
    assert stack["pieces"] == ["bS1", "wB1"] and stack["top"] == "wB1" and stack["height"] == 2
    assert stack["label"] == "White beetle B1 on Black spider S1"
    assert cell_by_name(geo, "2,-1")["label"] == "Black queen"


def test_empty_board_offers_the_origin():
    data = {**sample_observation("start"), "pieces": [], "last_move": None, "last_to": None}
    geo = layout(data)
    assert [c["name"] for c in geo["cells"]] == ["0,0"]
    img = image_of(render_png(data))
    assert img.size == (geo["width"], geo["height"])


def test_expansion_pieces_and_tall_stacks_render():
    data = sample_observation("middle")
    data["pieces"] += [
        {"id": "wM", "color": "w", "bug": "M", "q": -2, "r": 2, "height": 0, "top": True},
        {"id": "bL", "color": "b", "bug": "L", "q": 4, "r": -2, "height": 0, "top": True},
        {"id": "bP", "color": "b", "bug": "P", "q": 0, "r": -2, "height": 0, "top": True},
        {"id": "bB2", "color": "b", "bug": "B", "q": 1, "r": 0, "height": 2, "top": True},
    ]
    for p in data["pieces"]:
        if p["id"] == "wB1":
            p["top"] = False
    data["expansions"] = "MLP"
    geo = layout(data)
    assert cell_by_name(geo, "1,0")["pieces"] == ["bS1", "wB1", "bB2"]
    assert cell_by_name(geo, "1,0")["label"] == "Black beetle B2 on White beetle B1, on Black spider S1"
    image_of(render_png(data, coords=True))


def test_a_long_line_of_pieces_stays_within_the_size_hint_when_possible():
    pieces = [{"id": f"w{'A' if i % 2 else 'G'}{i}", "color": "w", "bug": "A" if i % 2 else "G", "q": i, "r": 0,
               "height": 0, "top": True} for i in range(22)]
    data = {**sample_observation("start"), "pieces": pieces, "last_to": None}
    geo = layout(data, size_hint=900)
    assert geo["width"] <= 900 and geo["height"] <= 900
    assert image_of(render_png(data)).size == (geo["width"], geo["height"])


def test_only_the_observation_data_is_read():
    """observation_png/observation_layout take an engine Observation (or its data): nothing else."""
    data = sample_observation("middle")
    obs = Observation(seat=1, data=data, text="(text the picture never uses)")
    assert observation_png(obs) == render_png(data)
    assert observation_png(data) == render_png(data)
    assert observation_layout(obs) == layout(data)
    # Fields that are not drawn do not change the picture.
    assert render_png({**data, "game_string": "something else", "you": 0}) == render_png(data)


def test_description_for_alt_text():
    assert describe(sample_observation("start")) == "Hive board with 2 pieces, last move bS1 wS1-, White to move."
    end = describe(sample_observation("end"))
    assert end.startswith("Hive board with 22 pieces, last move wA1 bQ-") and "White wins" in end


def test_hands_in_the_layout_give_reserve_locations():
    geo = layout(sample_observation("start"))
    white, black = geo["hands"]
    assert (white["color"], white["seat"], black["color"], black["seat"]) == ("w", 0, "b", 1)
    spiders = next(p for p in white["pieces"] if p["bug"] == "S")
    assert spiders == {"bug": "S", "count": 1, "name": "spider", "location": "hand:wS"}


# --- with the real engine ---------------------------------------------------------------------------


def hive_game():
    from gameplay.engines.hive import HiveGame

    return HiveGame()


def test_every_clickable_location_of_random_engine_play_is_a_layout_cell():
    game = hive_game()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        for _ in range(60):
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            obs = state.observation(seat)
            geo = layout(obs.data)
            names = {c["name"] for c in geo["cells"]}
            hands = {p["location"] for h in geo["hands"] for p in h["pieces"] if p["count"]}
            actions = state.legal_actions(seat)
            for action in actions:
                for location in action.path:
                    assert location in names or location in hands, (action, location)
            image_of(render_png(obs.data))
            state.apply_action(seat, rng.choice(actions).id)
