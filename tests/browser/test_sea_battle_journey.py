"""Sea Battle in a real browser: on a phone, a person commands the Red fleet against the random agent, giving
each ship its order on the order pad turn after turn until the result shows (a short turn cap, set in the new-match
form, keeps the battle quick); screenshots of the start, the middle and the end go to test-artifacts/."""

from __future__ import annotations

import random
import re
import time

from tests.browser.conftest import ARTIFACTS

TURN_CAP = 6


def ordering(page) -> tuple[str, str]:
    """The turn and the ship the pad is ordering (changes once an order of ours is in)."""
    board = page.locator("#board .seabattle")
    return board.get_attribute("data-turn") or "", board.get_attribute("data-current") or ""


def order_taken(page, before: tuple[str, str], timeout: float = 5.0) -> bool:
    """Poll until our order shows (the CSP forbids wait_for_function); False if the click was refused (a board
    swapped by the agent's move just before it) and the order must be given again."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#result").count() or ordering(page) != before:
            return True
        page.wait_for_timeout(50)
    return False


def test_person_plays_a_whole_battle_against_the_random_agent_on_a_phone(phone_page, server_url):
    page = phone_page
    page.goto(server_url + "/")
    page.get_by_role("link", name="New Sea Battle match").click()
    page.get_by_label("Blue").select_option("agent:random")
    page.get_by_label("Turn cap").fill(str(TURN_CAP))
    page.get_by_label("Seed").fill("11")
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    page.wait_for_selector("#board svg.sb-sea")
    assert page.locator("#board .sb-pad").get_attribute("aria-label") == "Orders for R1"
    # Only live ships are drawn, and enemy damage is never on the page.
    assert page.locator("#board .ship").count() == 6
    assert "damage hidden" in page.locator("#board .sb-fleets").inner_text()
    page.screenshot(path=str(ARTIFACTS / "sea-battle-start.png"), full_page=True)
    no_scroll = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert no_scroll, "the page scrolls sideways on a phone"

    rng = random.Random(3)
    orders = 0
    while not page.locator("#result").count():
        page.wait_for_selector("#board .sb-order, #result", timeout=30_000)
        if page.locator("#result").count():
            break
        before = ordering(page)
        buttons = page.locator("#board .sb-order")
        buttons.nth(rng.randrange(buttons.count())).click()
        if not order_taken(page, before):
            continue
        orders += 1
        if orders == 4:
            # R1's order has been given: the middle of turn 2, last turn's report on the page.
            page.wait_for_selector("#board .sb-report")
            page.screenshot(path=str(ARTIFACTS / "sea-battle-middle.png"), full_page=True)
        assert orders <= 3 * TURN_CAP, "more orders than the turn cap allows"
    result = page.locator("#result").inner_text()
    assert re.search(r"won|lost|draw|wins", result, re.IGNORECASE), result
    assert page.locator("#board .sb-order").count() == 0
    page.screenshot(path=str(ARTIFACTS / "sea-battle-end.png"), full_page=True)
    # The last turn is visible: its orders, including the agent's, are reported.
    report = page.locator("#board .sb-report").inner_text()
    assert "Orders:" in report and "B1" in report
    # The player's replay draws the same sea as Red saw it, without the order pad.
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector("svg.sb-sea")
    assert page.locator(".sb-order").count() == 0
    fleets = page.locator(".sb-fleets").inner_text()
    assert "damage hidden" not in fleets and fleets.count("damage ") >= 2  # at the end every ship's damage is shown


def test_two_people_through_an_invite_link_and_red_orders_stay_hidden_from_blue(chromium, server_url):
    host_ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    guest_ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    for page in (host, guest):
        page.set_default_timeout(10_000)
    try:
        host.goto(server_url + "/")
        host.get_by_role("link", name="New Sea Battle match").click()
        host.get_by_label("Blue").select_option("invite")
        host.get_by_label("Turn cap").fill("1")
        host.get_by_role("button", name="Start match").click()
        host.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        guest.goto(host.get_by_label("Invite link for Blue").input_value())
        guest.get_by_role("button", name="Join as Blue").click()
        guest.wait_for_selector("#board .sb-pad")
        host.wait_for_selector("#board .sb-pad")

        for ship in ("R1", "R2", "R3"):
            host.wait_for_selector(f'#board .seabattle[data-current="{ship}"]')
            host.locator('#board button[data-action-id="left_R"]').click()
        host.wait_for_selector("#board .sb-wait")
        guest.wait_for_selector("#board .sb-fleets >> text=Their orders are in (hidden).")
        html = guest.content()
        # Blue's page names no order of Red's (its own pad offers left_R too, so look for Red's wording).
        assert "You ordered" not in html and "R1 left turn" not in html and "R1: left" not in html

        for ship in ("B1", "B2", "B3"):
            guest.wait_for_selector(f'#board .seabattle[data-current="{ship}"]')
            guest.locator('#board button[data-action-id="stay_L"]').click()
        for page in (host, guest):
            page.wait_for_selector("#result")
            assert "R1 left turn + starboard" in page.locator("#board .sb-report").inner_text()
        guest.screenshot(path=str(ARTIFACTS / "sea-battle-two-people-guest.png"), full_page=True)
        host.screenshot(path=str(ARTIFACTS / "sea-battle-two-people-host-laptop.png"), full_page=True)
    finally:
        host_ctx.close()
        guest_ctx.close()
