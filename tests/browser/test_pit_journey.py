"""Pit in the browser: three people, each in their own browser (phone-sized) on one match's links, trade by
clicking the market (an offer from the builder, an answer on another's standing offer, a pass) until one of them
corners Wheat. Seed 369 with one hand deals Player 1 six Wheat and three Corn, and Player 2 the other three
Wheat, so one deliberate blind trade makes a corner."""

from __future__ import annotations

import re

from .conftest import ARTIFACTS
from .new_match import phone, wait_version

SEED = 369


def no_horizontal_scroll(page) -> bool:
    width = page.evaluate("document.documentElement.scrollWidth")
    return width <= 390


def test_three_people_trade_blind_until_a_corner(chromium, server_url):
    contexts, pages = zip(*(phone(chromium) for _ in range(3)), strict=True)
    p1, p2, p3 = pages
    try:
        p1.goto(server_url + "/")
        p1.get_by_role("link", name="New Pit match").click()
        p1.get_by_label("Seed").fill(str(SEED))
        p1.get_by_label("Players").select_option("3")
        p1.get_by_label("Hand cap").fill("1")
        p1.get_by_label("Player 2", exact=True).select_option("invite")
        p1.get_by_label("Player 3", exact=True).select_option("invite")
        p1.get_by_role("button", name="Start match").click()
        p1.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for guest, name in ((p2, "Player 2"), (p3, "Player 3")):
            guest.goto(p1.get_by_label(f"Invite link for {name}").input_value())
            guest.get_by_role("button", name=f"Join as {name}").click()
            guest.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for page in pages:
            page.wait_for_selector('#board .pit-turn.mine')
        version = int(p1.locator("#board").get_attribute("data-version"))

        # Each sees only its own hand; the others' cards are face-down backs, not in the page at all.
        assert "Wheat\n×6" in p1.locator(".pit-hand").inner_text().replace(" ", "")
        assert p1.locator(".pit-player:not(.you) .back").count() == 18
        p1.screenshot(path=str(ARTIFACTS / "pit-phone-p1-start.png"), full_page=True)

        # Tick 1: Player 3 offers 2 Barley, Player 1 offers 3 Corn, Player 2 takes Player 1's offer with 3 Wheat.
        p3.get_by_role("button", name="Offer 2 Barley").click()
        version += 1
        wait_version(pages, version)
        assert "Player 3 offers 2 cards" in p1.locator(".pit-players").inner_text()
        p1.get_by_role("button", name="Offer 3 Corn").click()
        version += 1
        wait_version(pages, version)
        row = p2.locator('.accept-row[data-offer-seat="0"]')
        assert "Player 1 offers 3 cards" in row.inner_text()
        row.get_by_role("button", name="Take Player 1's offer of 3 cards: give 3 Wheat").click()
        version += 1
        wait_version(pages, version)  # the tick is over: every seat has acted, a new one starts

        # The traders learn what they got; the third sees only who traded how many.
        assert "you got 3 Wheat" in p1.locator(".pit-log").inner_text()
        assert "you got 3 Corn" in p2.locator(".pit-log").inner_text()
        third = p3.locator("#board").inner_text()
        assert "Player 1 and Player 2 traded 3 cards." in third
        assert "got 3" not in third and "Wheat ×" not in third
        assert "Wheat" not in p3.locator(".pit-log").inner_text()
        for page in pages:
            page.wait_for_selector('#board .pit-turn.mine')
            assert no_horizontal_scroll(page)
        p1.screenshot(path=str(ARTIFACTS / "pit-phone-p1.png"), full_page=True)
        p2.screenshot(path=str(ARTIFACTS / "pit-phone-p2.png"), full_page=True)
        p3.screenshot(path=str(ARTIFACTS / "pit-phone-p3.png"), full_page=True)

        # Tick 2: Player 1 holds all nine Wheat and corners; with one hand, that ends the game.
        p1.get_by_role("button", name="Corner Wheat (+100)!").click()
        for page in pages:
            page.wait_for_selector("#result")
            assert "Player 1 cornered Wheat with 9 Wheat: +100." in page.locator("#board").inner_text()
        p1.screenshot(path=str(ARTIFACTS / "pit-phone-p1-end.png"), full_page=True)
        assert "Player 1" in p2.locator("#result").inner_text()
    finally:
        for context in contexts:
            context.close()


def test_a_person_plays_a_whole_game_against_two_random_agents(phone_page, server_url):
    """One hand of three ticks: the agents act at once in each tick, the person's action closes it; the person
    offers, then passes until the tick cap re-deals and (max_hands 1) ends the game."""
    page = phone_page
    page.goto(server_url + "/")
    page.get_by_role("link", name="New Pit match").click()
    page.get_by_label("Seed").fill("11")
    page.get_by_label("Ticks per hand").fill("3")
    page.get_by_label("Hand cap").fill("1")
    page.get_by_role("button", name="Start match").click()  # Players 2 and 3 default to the random agent
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    clicks = 0
    while page.locator("#result").count() == 0:
        page.wait_for_selector("#board .pit-turn.mine, #result")
        if page.locator("#result").count():
            break
        tick = page.locator("#board .pit").get_attribute("data-tick")
        corner = page.locator("#board button.corner")
        if corner.count():
            corner.first.click()
        elif clicks == 0:
            page.locator("#board .offer-row button.count").first.click()
        else:
            page.get_by_role("button", name="Pass this tick").click()
        clicks += 1
        page.wait_for_selector(f'#board .pit:not([data-tick="{tick}"]), #result')
    assert 1 <= clicks <= 3
    assert page.locator("#result").inner_text().strip()
    page.screenshot(path=str(ARTIFACTS / "pit-phone-vs-agents-end.png"), full_page=True)
    assert no_horizontal_scroll(page)
