"""Hive's pieces are pictures of their bugs (issue 39): on a mid-game board (every bug kind with the three
expansions, and a Beetle on top of another piece) each piece on the board and in the reserve is drawn with its bug's
picture, not a letter, yet still named for screen readers; the stack keeps its height badge; the legend under the
board names the pictures. Screenshots at a phone's 390x844 and a laptop's 1280x800 go to test-artifacts/ for a
person to look at."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import ARTIFACTS

ROOT = ARTIFACTS.parent
BUG_NAMES = {"Q": "queen", "S": "spider", "B": "beetle", "G": "grasshopper", "A": "ant", "M": "mosquito",
             "L": "ladybug", "P": "pillbug"}


@pytest.fixture(scope="module")
def position(server_url, server_url_env):
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                           "from tests.browser.hive_position import main; main()"],
                          cwd=ROOT, env=server_url_env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_pieces_are_bug_pictures_named_for_screen_readers(request, server_url, position, size):
    page = request.getfixturevalue(f"{size}_page")
    page.goto(f"{server_url}/play/{position['tokens'][0]}/")
    page.wait_for_selector("#board .hive-overlay .pieces .piece")
    page.wait_for_function("() => { const i = document.querySelector('.hive-board img');"
                           " return i && i.complete && i.naturalWidth > 0 }")
    board = page.locator("#board")
    pieces = board.locator(".hive-overlay .piece")
    # Every piece on the board: its bug's picture (a sprite symbol that exists and has shapes), no letter, and
    # either a name of its own or the name of the clickable cell over it.
    drawn = pieces.evaluate_all("""els => els.map(g => {
      const use = g.querySelector(':scope > use');
      const id = use.getAttribute('href').slice(1);
      const symbol = document.getElementById(id);
      const cell = g.dataset.pieceCell;
      const button = document.querySelector(`#board polygon[data-cell="${cell}"]`);
      return {bug: id.replace('hive-bug-', ''),
              shapes: symbol ? symbol.querySelectorAll('path,ellipse,circle').length : 0,
              name: g.getAttribute('aria-label') || (button && button.getAttribute('aria-label')) || '',
              hidden: g.getAttribute('aria-hidden') === 'true', button: !!button,
              texts: [...g.querySelectorAll(':scope > text')].map(t => t.textContent)};
    })""")
    assert {d["bug"] for d in drawn} == set(position["bugs"])
    assert set(position["bugs"]) >= {"Q", "M", "L", "P", "B"}
    for d in drawn:
        assert d["shapes"] >= 3, d
        assert BUG_NAMES[d["bug"]] in d["name"].lower(), d  # named, with its owner
        assert d["name"].startswith(("White", "Black")), d
        assert d["hidden"] == d["button"], d  # named once: by the piece, or by the cell's button over it
        assert all(not t.isalpha() for t in d["texts"]), d  # a number at most, no letter
    # The stack: its height badge and the note of what lies under it.
    stack = board.locator(".hive-overlay .piece .stack")
    assert stack.count() >= 1
    assert stack.first.locator("text").first.text_content() == "2"
    assert stack.first.locator(".under text").text_content().startswith("on ")
    # The reserve: pictures with names; the legend under the board: each bug in play, pictured and named.
    reserve = board.locator(".hive-hand .hand-piece")
    assert reserve.count() > 0 and reserve.locator("svg use").count() == reserve.count()
    assert min(box["width"] for box in (svg.bounding_box() for svg in reserve.locator("svg.bug-pic").all())) >= 32
    assert all(name.split(",")[0].split()[-1] in BUG_NAMES.values() for name in
               reserve.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))
    legend = board.locator(".bug-legend li")
    assert legend.count() == 8 and legend.locator("use").count() == 8
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"
    page.screenshot(path=str(ARTIFACTS / f"hive-pictures-{size}.png"), full_page=True)
    board.locator(".hive-board").screenshot(path=str(ARTIFACTS / f"hive-pictures-{size}-board.png"))


def test_the_rules_page_shows_each_bug_picture_by_its_name(laptop_page, server_url):
    page = laptop_page
    page.goto(f"{server_url}/games/hive/rules/")
    rows = page.locator("#setup .bug-glossary li")
    assert rows.count() == 8
    for row in rows.all():
        bug = row.locator("use").get_attribute("href").removeprefix("#hive-bug-")
        assert BUG_NAMES[bug] in row.inner_text().lower(), row.inner_text()
        box = row.locator("svg.bug-icon").bounding_box()
        assert box["width"] >= 28 and box["height"] >= 28
    moves = page.locator("#special .bug-glossary li")
    assert moves.count() == 8 and moves.locator("svg.bug-icon use").count() == 8
    assert page.locator("symbol[id^=hive-bug-]").count() == 8  # the sprite once
    page.locator("#setup").screenshot(path=str(ARTIFACTS / "hive-pictures-rules.png"))
