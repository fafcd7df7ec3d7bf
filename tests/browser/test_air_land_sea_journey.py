"""A person plays a whole game of Air, Land & Sea (to 12 VP, over several battles) against the random agent on a
phone: picking a hand card, a theater, then face up or face down, answering ability choices with their buttons
and starting the next battle, until the result shows. The opponent's hidden cards never reach the page."""

from __future__ import annotations

import re
import time

from tests.browser.conftest import ARTIFACTS
from tests.browser.new_match import start_against_agent
from tests.browser.santorini_player import result_text, wait_until_live

# Something this page can click: a face choice, a theater, a hand card or an ability/next-battle button.
PLAYABLE = ("#board .als-face button, #board button.als-head, #board .als-hand button.als-card, "
            "#board .als-choices button:not(.danger), #result")


def board_html(page) -> str:
    return page.locator("#board").inner_html()


def wait_for_change(page, before: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while board_html(page) == before and result_text(page) is None:
        assert time.monotonic() < deadline, "the board did not change after a click"
        page.wait_for_timeout(30)


def act_once(page) -> str:
    """One click the way a person plays: finish a play in progress, else answer a pending choice, else start a
    play with the first hand card (choosing face up whenever the card may go face up there)."""
    for selector in ("#board .als-face button", "#board button.als-head"):
        if page.locator(selector).count():
            page.locator(selector).first.click()
            return selector
    choices = page.locator("#board .als-choices button:not(.danger):not(.secondary)")
    hand = page.locator("#board .als-hand button.als-card")
    if hand.count():
        hand.first.click()
        return "hand"
    if choices.count():
        choices.first.click()
        return "choice"
    return ""


def test_person_plays_a_full_game_against_the_random_agent_on_a_phone(phone_page, server_url):
    page = phone_page
    start_against_agent(page, server_url, "Air, Land & Sea", "Red", "random", "#board .als")
    wait_until_live(page)
    assert page.locator("#board .als-theater").count() == 3
    assert page.locator("#board .als-vp").count() == 2
    page.screenshot(path=str(ARTIFACTS / "air_land_sea-start.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"

    seen_battles, clicks, shot_midgame = set(), 0, False
    deadline = time.monotonic() + 90
    while result_text(page) is None:
        assert time.monotonic() < deadline, "the game did not finish in time"
        page.wait_for_selector(PLAYABLE, timeout=20_000)
        if result_text(page) is not None:
            break
        seen_battles.add(page.locator("#board .als").get_attribute("data-battle"))
        # No card the person may not know is on the page: every opponent card drawn face down is a bare back.
        for back in page.locator("#board .als-stack.top .als-card.back").all():
            assert back.get_attribute("data-card") is None
        before = board_html(page)
        if not act_once(page):
            page.wait_for_timeout(50)
            continue
        clicks += 1
        wait_for_change(page, before)
        if not shot_midgame and page.locator("#board .als-stack .als-card").count() >= 6:
            page.screenshot(path=str(ARTIFACTS / "air_land_sea-midgame.png"), full_page=True)
            shot_midgame = True
            assert page.locator("#board .als-last").count() == 1  # the agent's last action is shown
    page.screenshot(path=str(ARTIFACTS / "air_land_sea-end.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(ARTIFACTS / "air_land_sea-end-laptop.png"), full_page=True)
    text = result_text(page)
    assert re.search(r"wins|won|lost|Blue|Red", text), text
    vp = page.locator("#board .als").get_attribute("data-vp")
    assert max(int(v) for v in vp.split("-")) >= 12, vp
    assert len(seen_battles) >= 2, seen_battles
    assert clicks > 10
