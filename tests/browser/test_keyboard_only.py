"""Every game is playable by keyboard alone (issue 16, point 8): from the moment the page opens, only key presses
(Tab, Enter, the arrow keys, typing): no clicks and no focusing elements from the test. The match controls are
reachable the same way."""

from __future__ import annotations

import re

from tests.browser.santorini_player import wait_until_live

MAX_TABS = 120  # header links, invite and presence, then the board: far fewer than this on every page


def start(page, server_url: str, link: str, seat_label: str, opponent: str) -> None:
    page.goto(server_url + "/")
    page.get_by_role("link", name=link).click()
    page.get_by_label(seat_label).select_option(opponent)
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    wait_until_live(page)


def tab_to(page, selector: str) -> str:
    """Press Tab until the focused element matches ``selector``; its outer HTML's opening tag, for messages."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return page.evaluate("() => document.activeElement.outerHTML.split('>')[0]")
    raise AssertionError(f"{MAX_TABS} presses of Tab never reached {selector}")


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.querySelector('#board').dataset.version) >= v", arg=at_least)


def press_on(page, selector: str, key: str = "Enter") -> None:
    """From the top of the page, Tab to the first element matching ``selector`` and press ``key`` on it."""
    page.keyboard.press("Escape")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    tab_to(page, selector)
    page.keyboard.press(key)


def test_santorini_by_keyboard_then_resign(laptop_page, server_url):
    page = laptop_page
    start(page, server_url, "New Santorini match", "Player 2", "agent:random")
    # Place both workers: Tab to a highlighted square, Enter.
    for placed in (1, 2):
        press_on(page, "#board button.cell.target")
        wait_for_version(page, placed)
    # A whole turn: pick a worker, move it, build (the agent places its two workers in between).
    page.wait_for_selector("#board button.cell.pick")
    start_version = version(page)
    press_on(page, "#board button.cell.pick")
    page.wait_for_selector("#board button.cell.selected")
    press_on(page, "#board button.cell.target")  # the move
    wait_for_version(page, start_version + 1)
    page.wait_for_selector("#board button.cell.target, #result")
    if page.locator("#result").count() == 0:
        press_on(page, "#board button.cell.target")  # the build
        wait_for_version(page, start_version + 2)
    # Resign without the mouse: the folded controls open with Enter, the button is next in the Tab order.
    page.wait_for_selector("#status.your-turn, #result")
    if page.locator("#result").count() == 0:
        press_on(page, "#status details.match-controls > summary")
        tab_to(page, "#status button.danger")
        page.keyboard.press("Enter")
        page.wait_for_selector("#result")
        assert page.locator("#result").inner_text() == "You resigned. Player 2 won."


def test_hive_by_keyboard_placing_and_typing(laptop_page, server_url):
    page = laptop_page
    start(page, server_url, "New Hive match", "Black", "agent:random")
    page.wait_for_selector("#board button.hand-piece")
    # A placement: a piece in the reserve, then a highlighted cell of the board picture (SVG, Enter acts).
    press_on(page, "#board button.hand-piece")
    page.wait_for_selector("#board polygon.cell.target")
    press_on(page, "#board polygon.cell.target")
    wait_for_version(page, 1)
    # The next turn typed in the Universal Hive Protocol box.
    page.wait_for_selector("#status.your-turn")
    before = version(page)
    press_on(page, ".uhp-form input[name=text]", key="Tab")  # reach the box (and step past it) ...
    page.keyboard.press("Shift+Tab")  # ... back into it
    placement = page.locator("#actions [data-action-id]").first.get_attribute("data-action-id")  # a legal move
    page.keyboard.type(placement)
    page.keyboard.press("Enter")
    wait_for_version(page, before + 1)


def test_gnomes_by_keyboard_arrow_keys_and_the_pad(laptop_page, server_url):
    page = laptop_page
    start(page, server_url, "New Gnomes at Night match", "Gnome B", "agent:gnomes-mute")
    page.keyboard.press("ArrowDown")  # the arrow keys play from anywhere but a text box: (0,0) -> (0,1)
    page.wait_for_function("() => Number(document.querySelector('#board .gnomes-turn').dataset.turn) >= 1")
    page.wait_for_selector("#board .gnomes-turn.mine")  # the agent's answer
    turn = int(page.locator("#board .gnomes-turn").get_attribute("data-turn"))
    press_on(page, '#board button[data-action-id="stay"]', key=" ")  # the pad, by Tab and Space
    page.wait_for_function(
        "t => Number(document.querySelector('#board .gnomes-turn').dataset.turn) > t", arg=turn
    )
    # Chat by keyboard: Tab to the box, type, Enter; the keyboard is back on the board for the next move.
    page.wait_for_selector("#board .gnomes-turn.mine")
    press_on(page, "#chat-text", key="Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.type("going down")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-log li:has-text('going down')")
    turn = int(page.locator("#board .gnomes-turn").get_attribute("data-turn"))
    page.keyboard.press("ArrowDown")
    page.wait_for_function(
        "t => Number(document.querySelector('#board .gnomes-turn').dataset.turn) > t", arg=turn
    )


# Issue 39, point 4: after the page's first Tab ("Skip to the board") and Enter, a whole Santorini game is played with
# the arrow keys and Enter alone: after every move, the agent's answer and every frame between, the keyboard is still
# on the board (static/js/live.js gives it back; static/js/keys.js moves it between cells).
TOWARDS = """goal => {
  const box = (e) => { const b = e.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; };
  const [fx, fy] = box(document.activeElement), [gx, gy] = box(document.querySelector(goal));
  if (Math.abs(gx - fx) < 2 && Math.abs(gy - fy) < 2) return "";
  if (Math.abs(gx - fx) >= Math.abs(gy - fy)) return gx > fx ? "ArrowRight" : "ArrowLeft";
  return gy > fy ? "ArrowDown" : "ArrowUp";
}"""
ON_BOARD = "() => !!(document.activeElement && document.activeElement.closest('#board'))"


def arrow_to(page, goal: str) -> None:
    """Press arrow keys until the keyboard is on the first element matching ``goal`` (at most 12 presses)."""
    for _ in range(12):
        if page.evaluate("g => document.activeElement === document.querySelector(g)", goal):
            return
        key = page.evaluate(TOWARDS, goal)
        if not key:
            return
        page.keyboard.press(key)
    raise AssertionError(f"the arrow keys never reached {goal}")


def test_a_whole_santorini_game_by_arrows_and_enter_after_one_tab(laptop_page, server_url):
    page = laptop_page
    page.goto(server_url + "/games/santorini/new/")
    page.locator("[name=opt_max_turns]").fill("6")  # a turn cap: the game ends (a draw at worst) within six turns
    page.get_by_role("button", name="Start match").click()  # Player 2 is the random agent by default
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    wait_until_live(page)
    page.keyboard.press("Tab")  # the only Tab of the game
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to the board"
    page.keyboard.press("Enter")
    assert page.evaluate(ON_BOARD), "Skip to the board did not put the keyboard on the board"
    decisions = 0
    while True:
        page.wait_for_selector("#result, #board button.cell.target, #board button.cell.pick")
        if page.locator("#result").count():
            break
        try:  # the page gives the keyboard back once it has drawn the frame (after htmx swapped it in)
            page.wait_for_function(ON_BOARD, timeout=3_000)
        except Exception as error:
            where = page.evaluate("() => document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : ''")
            raise AssertionError(f"the keyboard left the board before decision {decisions + 1}: {where}") from error
        goal = "#board button.cell.target" if page.locator("#board button.cell.target").count() else \
            "#board button.cell.pick"
        before = page.locator("#board").inner_html()
        arrow_to(page, goal)
        page.keyboard.press("Enter")
        page.wait_for_function("html => document.querySelector('#board').innerHTML !== html", arg=before)
        decisions += 1
        assert decisions < 60, "the game did not end"
    assert decisions >= 4, decisions  # two placements, then at least one move
    assert "won" in page.locator("#result").inner_text() or "draw" in page.locator("#result").inner_text().lower()
