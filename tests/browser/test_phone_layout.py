"""Phone-first match pages (issue 16, point 3): at 390x844 each game shows its board, its controls and (where
the game has chat) the chat without scrolling; the chat is docked to the bottom and opens to a drawer; key
hints show only where there are keys; after a chat line is sent the keyboard is back on the board."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.santorini_player import wait_until_live

# (link on the lobby, the opponent's seat label, opponent, the board, the controls that must be in view)
GAMES = {
    "santorini": (
        "New Santorini match", "Player 2", "agent:random", "#board .santorini", ["#board button.cell", "#status"]
    ),
    "hive": (
        "New Hive match", "Black", "agent:random", "#board .hive-board", ["#board .hive-hand button", ".uhp-form"]
    ),
    "gnomes": ("New Gnomes at Night match", "Gnome B", "agent:gnomes-mute", "#board svg.maze", ["#board .pad"]),
    "atari_boxing": (
        "New Atari Boxing match", "Black", "agent:boxer", "#live-canvas",
        ["#board .boxing-score", "#live-stage [data-hold='down right']", "#live-stage [data-hold='fire']"],
    ),
    "codenames": (
        "New Codenames match", "Player 2", "agent:random", "#board .cn-grid", ["#board .cn-head", "#board .cn-turn"]
    ),
    "who_is_spy": (
        "New Who is Spy match", "Player 2", "agent:random", "#board .spy-card", ["#board .spy-head", "#board .spy-turn"]
    ),
}

# The element's box lies inside the screen as it is (no scrolling) and above the docked chat, if there is one.
IN_VIEW = """sel => {
  const el = document.querySelector(sel);
  if (!el) return sel + ': missing';
  const box = el.getBoundingClientRect();
  const dock = document.getElementById('chat-dock');
  const floor = dock && !dock.contains(el) ? dock.getBoundingClientRect().top : window.innerHeight;
  if (box.height === 0) return sel + ': not shown';
  if (box.top < 0 || box.bottom > floor + 0.5 || box.right > window.innerWidth + 0.5)
    return `${sel}: ${Math.round(box.top)}..${Math.round(box.bottom)} outside 0..${Math.round(floor)}`;
  return '';
}"""


def start(page, server_url: str, game: str) -> None:
    link, seat_label, opponent, board, _ = GAMES[game]
    page.goto(server_url + "/")
    page.get_by_role("link", name=link).click()
    page.get_by_label(seat_label).select_option(opponent)
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    page.wait_for_selector(board)
    wait_until_live(page)


def assert_in_view(page, selector: str) -> None:
    problem = page.evaluate(IN_VIEW, selector)
    assert problem == "", problem


@pytest.mark.parametrize("game", sorted(GAMES))
def test_board_controls_and_chat_share_one_phone_screen(phone_page, server_url, game):
    page = phone_page
    start(page, server_url, game)
    board, controls = GAMES[game][3], GAMES[game][4]
    has_chat = page.locator("#chat-text:enabled").count() == 1
    # These have no chat (their specs say so); the person here is Codenames' Red Spymaster, who reads the team chat
    # but may not write in it.
    assert has_chat == (game not in ("hive", "atari_boxing", "codenames", "who_is_spy"))
    if has_chat:
        page.get_by_label("Message").fill("hello from the phone")
        page.get_by_label("Message").press("Enter")
        page.wait_for_selector("#chat-log li:has-text('hello from the phone')")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"phone-{game}.png"))
    assert page.evaluate("window.scrollY") == 0
    for selector in [board, *controls]:
        assert_in_view(page, selector)
    if has_chat:
        assert_in_view(page, "#chat-text")
        assert_in_view(page, "#chat-log li:last-of-type")
        # The Chat button opens the log to a drawer for reading back, and folds it again.
        folded = page.locator("#chat-log").evaluate("log => log.clientHeight")
        page.get_by_role("button", name="Chat").click()
        assert page.get_by_role("button", name="Chat").get_attribute("aria-expanded") == "true"
        assert page.locator("#chat-log").evaluate("log => log.clientHeight") > folded * 2
        page.get_by_role("button", name="Chat").click()
        assert page.locator("#chat-log").evaluate("log => log.clientHeight") == folded
    # A phone has no keys to hint at.
    assert page.locator("#board .keys").count() == 0 or page.locator("#board .keys").is_hidden()


def test_on_a_laptop_the_chat_stays_beside_the_board_and_keys_are_hinted(laptop_page, server_url):
    page = laptop_page
    start(page, server_url, "gnomes")
    assert page.locator("#board .keys").is_visible()
    assert page.get_by_role("button", name="Chat").is_hidden()
    dock, board = page.locator("#chat-dock").bounding_box(), page.locator("#board").bounding_box()
    assert dock["x"] >= board["x"] + board["width"]  # in the side column, not docked under the board


def test_after_sending_a_chat_line_the_arrow_keys_play_again(laptop_page, server_url):
    page = laptop_page
    start(page, server_url, "gnomes")
    page.get_by_label("Message").fill("I'll go down")
    page.get_by_label("Message").press("Enter")
    page.wait_for_selector("#chat-log li:has-text('go down')")
    assert page.evaluate("document.activeElement.closest('#board') !== null")
    page.keyboard.press("ArrowDown")  # (0,0) -> (0,1) is open on side 0
    page.wait_for_function("() => Number(document.querySelector('#board .gnomes-turn').dataset.turn) >= 1")
