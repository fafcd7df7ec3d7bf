"""A person plays Hive against the random agent in a real browser: by clicking reserve pieces and
highlighted cells on the board picture's overlay (once from the keyboard), moving a placed piece, and
typing one move in UHP notation."""

from __future__ import annotations

import re
import time

from tests.browser.conftest import ARTIFACTS
from tests.browser.new_match import start_against_agent
from tests.browser.santorini_player import wait_until_live

OWN_TURNS = 6


def start_match(page, server_url: str) -> None:
    start_against_agent(page, server_url, "Hive", "Black", "random", "#board .hive-board svg.hive-overlay")
    # The socket's first frame redraws the board (a new picture): measure and click only after it.
    wait_until_live(page)


def image_loaded(page) -> None:
    page.wait_for_function(
        "() => { const i = document.querySelector('.hive-board img');"
        " return i && i.complete && i.naturalWidth > 0 }"
    )


def wait_for_my_turn(page, version: int, timeout: int = 15_000) -> bool:
    """Wait until the board shows ``version`` with my pieces clickable; False if the match ended."""
    page.wait_for_function(
        """v => document.querySelector('#result') ||
               (document.querySelector('#board').dataset.version === String(v) &&
                document.querySelector('#status.your-turn') &&
                document.querySelector('#board button.hand-piece, #board polygon.cell'))""",
        arg=version,
        timeout=timeout,
    )
    return page.locator("#result").count() == 0


def wait_for_version_after(page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#board').dataset.version) > v || document.querySelector('#result')",
        arg=version,
    )


def board_pieces(page) -> list[str]:
    """Locations of my movable pieces on the board (dashed overlay cells that are not targets)."""
    return page.locator("#board polygon.cell.pick.occupied").evaluate_all("els => els.map(e => e.dataset.cell)")


def click_target(page, use_keyboard: bool = False) -> str:
    page.wait_for_selector("#board polygon.cell.target")
    target = page.locator("#board polygon.cell.target").first
    label = target.get_attribute("aria-label")
    if use_keyboard:
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()
    return label


def test_person_plays_hive_by_clicking_and_typing(laptop_page, server_url):
    page = laptop_page
    start_match(page, server_url)
    image_loaded(page)
    assert "White to move" in page.locator("#board .hive-board img").get_attribute("alt")
    # The overlay covers the picture exactly.
    img_box = page.locator("#board .hive-board img").bounding_box()
    svg_box = page.locator("#board svg.hive-overlay").bounding_box()
    for key in ("x", "y", "width", "height"):
        assert abs(img_box[key] - svg_box[key]) <= 1, (key, img_box, svg_box)

    moved = typed = keyboard = False
    turns_played = 0
    deadline = time.monotonic() + 120
    for turn in range(OWN_TURNS + 4):
        assert time.monotonic() < deadline, "the match took too long"
        version = 2 * turn  # White moves at even versions: one action per turn, the agent answers at once
        if not wait_for_my_turn(page, version):
            break
        image_loaded(page)
        assert page.locator("#board polygon.cell, #board button.hand-piece").count() > 0
        if turn == 2 and not typed:
            # Type a legal move (read from the list of legal actions) instead of clicking.
            action_id = page.locator("#actions [data-action-id]").first.get_attribute("data-action-id")
            page.get_by_label("Type a move").fill(action_id)
            page.get_by_label("Type a move").press("Enter")
            wait_for_version_after(page, version)
            assert page.locator("#flash.error").count() == 0
            typed = True
        elif turn >= 3 and not moved and board_pieces(page):
            piece = board_pieces(page)[0]
            page.locator(f'#board polygon[data-cell="{piece}"]').click()
            page.wait_for_selector(f'#board polygon.cell.selected[data-cell="{piece}"]')
            image_loaded(page)
            page.screenshot(path=str(ARTIFACTS / "hive-browser-move.png"), full_page=True)
            click_target(page)
            wait_for_version_after(page, version)
            moved = True
        else:
            # Place from the reserve: the queen on the second turn, so that pieces may move afterwards.
            hand = page.locator("#board button.hand-piece.pick")
            queen = page.locator('#board button.hand-piece.pick[data-location="hand:wQ"]')
            (queen if turn == 1 and queen.count() else hand.first).click()
            page.wait_for_selector("#board button.hand-piece.selected")
            click_target(page, use_keyboard=not keyboard)
            keyboard = True
            wait_for_version_after(page, version)
        turns_played += 1
        if turns_played >= OWN_TURNS and moved:
            break

    assert turns_played >= OWN_TURNS or page.locator("#result").count(), "fewer than six of my turns were played"
    assert typed and keyboard
    assert moved or page.locator("#result").count(), "no placed piece could be moved"
    page.wait_for_function("() => document.querySelector('#board').dataset.version !== undefined")
    image_loaded(page)
    assert page.locator("#board .hive-board img").evaluate("i => i.naturalWidth") > 0
    page.screenshot(path=str(ARTIFACTS / "hive-browser.png"), full_page=True)


def test_hive_board_fits_a_phone(phone_page, server_url):
    page = phone_page
    start_match(page, server_url)
    image_loaded(page)
    # Coordinates (drawn by the overlay) can be switched on and stay on across board updates.
    coords = page.locator("#board .hive-overlay .coords")
    assert not coords.is_visible()
    page.get_by_label("Show coordinates").check()
    assert coords.is_visible()
    page.locator("#board button.hand-piece.pick").first.tap()
    page.wait_for_selector("#board polygon.cell.target")
    assert page.get_by_label("Show coordinates").is_checked() and coords.is_visible()
    img_box = page.locator("#board .hive-board img").bounding_box()
    svg_box = page.locator("#board svg.hive-overlay").bounding_box()
    assert img_box["width"] <= 390 and abs(img_box["width"] - svg_box["width"]) <= 1
    assert abs(img_box["height"] - svg_box["height"]) <= 1
    page.screenshot(path=str(ARTIFACTS / "hive-phone-place.png"), full_page=True)
    page.locator("#board polygon.cell.target").first.tap()
    page.wait_for_function("() => document.querySelector('#board').dataset.version !== '0'")
    image_loaded(page)
    page.screenshot(path=str(ARTIFACTS / "hive-phone.png"), full_page=True)


def test_finished_match_page_and_replay_show_the_picture(laptop_page, server_url):
    page = laptop_page
    page.goto(server_url + "/games/hive/new/")
    page.get_by_label("White").select_option("agent:random")
    page.get_by_label("Black").select_option("agent:random")
    page.get_by_label("Seed").fill("11")
    page.get_by_label("Turn cap").fill("40")  # random play is long; a draw at 40 turns keeps this quick
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    # The agents play in the background; the spectator page follows them until the result is there.
    page.locator("#result").wait_for(timeout=90_000)
    image_loaded(page)
    assert page.locator(".hive-board polygon").count() == 0  # spectators have nothing to click
    page.screenshot(path=str(ARTIFACTS / "hive-finished.png"), full_page=True)
    page.get_by_role("link", name="Replay").click()
    image_loaded(page)
    last = page.locator(".hive-board img").get_attribute("src")
    page.get_by_role("link", name="◀ Back").click()
    page.wait_for_function("src => document.querySelector('.hive-board img').getAttribute('src') !== src", arg=last)
    image_loaded(page)
    assert re.search(r"board\.png\?step=\d+$", page.locator(".hive-board img").get_attribute("src"))
    # The result in words, the list of moves, and stepping by keyboard (issue 16, point 6).
    assert "scores [" not in page.content()
    assert page.locator(".move-list li").count() > 0
    page.keyboard.press("Home")
    page.wait_for_selector(".replay-nav >> text=Step 0 of")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".replay-nav >> text=Step 1 of")
    page.locator(".move-list a").nth(2).click()
    page.wait_for_selector('.move-list a[aria-current="step"]')
