"""Arctic Scavengers in a real browser: a person plays a whole game against the random agent on a phone, using
only the cards and buttons on the board (hunt with every hunter, hire the dearest mercenary it can, dig and keep
the first card, keep the hand for the skirmish), until the result shows.

The phone's game is the short one the new-match form offers (three contested resources: the two quiet rounds, then
three skirmish rounds), which holds every kind of round the published 16 do: a deck reshuffled from the discard
pile (round 3), the Initiator passing on (round 4), skirmishes with face-down cards, a middle and a last one. The
published length is played whole by the engine's tests (tests/engines/test_arctic_scavengers.py)."""

from __future__ import annotations

import time

from gameplay.engines.registry import create_game
from tests.browser.conftest import ARTIFACTS
from tests.browser.new_match import start_against_agent, start_new_match
from tests.browser.santorini_player import result_text, wait_until_live

CLICKABLE = "#board .arctic-buttons button, #board button.acard.playable, #result"
# Buttons by preference (a prefix of the action id); cards are clicked while a group or a payment is open.
PREFERENCE = ("go", "dig_keep:", "snipe:", "sabotage:", "hire:", "hunt", "dig", "keep", "skirmish_done",
              "end_turn", "trash_done", "dig_none")
PHONE_CONTESTED = 3  # the phone's game: contested resources, one skirmish round each after the two quiet rounds
PHONE_ROUNDS = create_game("arctic_scavengers", {"contested_count": PHONE_CONTESTED}).total_rounds()


def board_version(page) -> str:
    return page.locator("#board").get_attribute("data-version")


def wait_past(page, version: str, or_result: bool = False, timeout: float = 30_000) -> None:
    """Wait until the board shows another version than ``version`` (or, with ``or_result``, the result shows).
    A selector the page's own scripts answer, instead of polling from here: every poll is a round trip through
    Playwright's driver and the browser, which on two cores slowed the other tests' servers."""
    selector = f'#board:not([data-version="{version}"])' + (", #result" if or_result else "")
    page.wait_for_selector(selector, timeout=timeout)


def choose(page):
    """The button or card this person clicks now."""
    mode = page.locator("#board .arctic").get_attribute("data-mode")
    cards = page.locator("#board button.acard.playable")
    if mode in ("build", "pay") and cards.count():
        return cards.first
    buttons = page.locator("#board .arctic-buttons button")
    ids = buttons.evaluate_all("buttons => buttons.map(b => b.dataset.actionId)")  # one round trip for all
    for prefix in PREFERENCE:
        matching = [i for i, action_id in enumerate(ids) if action_id.startswith(prefix)]
        if matching:
            index = matching[-1] if prefix == "hire:" else matching[0]  # the dearest mercenary it can afford
            return buttons.nth(index)
    return buttons.first if ids else cards.first


def test_person_plays_a_whole_game_against_the_random_agent_on_a_phone(phone_page, server_url):
    page = phone_page
    start_against_agent(page, server_url, "Arctic Scavengers", "East Tribe", "random", "#board .arctic",
                        choices={"Contested resources": str(PHONE_CONTESTED)})
    wait_until_live(page)
    assert PHONE_ROUNDS == 5
    assert f"Round 1 of {PHONE_ROUNDS}" in page.locator("#board .arctic").inner_text()
    assert page.locator("#board .arctic-hand .acard").count() >= 1  # my five cards are drawn
    assert page.locator("#board .pile.contested .back").count() == 1  # the contested pile lies face down
    page.screenshot(path=str(ARTIFACTS / "arctic-start.png"), full_page=True)
    no_horizontal_scroll = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert no_horizontal_scroll

    clicks, shot_middle, facedown_seen = 0, False, False
    deadline = time.monotonic() + 150
    while result_text(page) is None:
        assert time.monotonic() < deadline, "the game did not finish in time"
        page.wait_for_selector(CLICKABLE, timeout=30_000)  # my turn or the result
        if result_text(page) is not None:
            break
        before = board_version(page)
        choose(page).click()
        clicks += 1
        wait_past(page, before, or_result=True)
        if not facedown_seen and page.locator("#board .tribe:not(.you) .mini-cards .back").count():
            # The agent's kept cards lie face down: only card backs and a count, never their names.
            backs = page.locator("#board .tribe:not(.you) .mini-cards")
            assert "face down" in backs.inner_text() and backs.locator(".mini").count() == 0
            page.screenshot(path=str(ARTIFACTS / "arctic-facedown.png"), full_page=True)
            facedown_seen = True
        round_number = int(page.locator("#board .arctic").get_attribute("data-round") or 0)
        if not shot_middle and round_number >= 4 and page.locator("#board .arctic-skirmish").count():
            page.screenshot(path=str(ARTIFACTS / "arctic-middle.png"), full_page=True)
            shot_middle = True

    page.screenshot(path=str(ARTIFACTS / "arctic-end.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator("#board .arctic").get_attribute("data-round") == str(PHONE_ROUNDS)
    assert page.locator("#board .arctic-skirmish").count() == 1
    assert page.locator("#board .tribe .people").count() == 2  # the final count of each tribe
    ending = result_text(page).lower()
    # Against a random agent any of the three endings can come: more people, fewer, or as many (a draw).
    assert any(word in ending for word in ("people", "won", "lost", "draw")), ending
    assert clicks >= PHONE_ROUNDS * 2  # at least an end of turn and a keep (or end) every round


def test_laptop_board_hunts_card_by_card(laptop_page, server_url):
    page = laptop_page
    start_against_agent(page, server_url, "Arctic Scavengers", "East Tribe", "random", "#board .arctic")
    wait_until_live(page)
    page.wait_for_selector("#board .arctic-buttons button", timeout=30_000)  # my first turn
    before = board_version(page)
    page.locator('#board .arctic-buttons button[data-action-id="hunt"]').click()
    wait_past(page, before)  # the hunt starts
    assert page.locator("#board .arctic").get_attribute("data-mode") == "build"
    hunters = page.locator("#board button.acard.playable")
    assert hunters.count() >= 1  # Refugees and Scavengers can hunt
    before = board_version(page)
    hunters.first.click()
    wait_past(page, before)  # the card joins the hunt
    assert "HUNT with" in page.locator("#board .arctic-step").inner_text()
    page.screenshot(path=str(ARTIFACTS / "arctic-laptop-hunt.png"), full_page=True)


def test_two_people_play_a_short_game_through_an_invite_link(chromium, server_url):
    """Two people, each in their own browser: the guest joins by the invite link, each sees the other's last
    action and face-down counts, never the other's cards, and both reach the result. The shortest game the form
    offers: GameBench's, whose skirmishes start in round 1, with one contested resource, so a single round of
    resource turns, kept cards and the skirmish (the published rounds are the phone journey's)."""
    host_ctx, guest_ctx = chromium.new_context(), chromium.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    try:
        start_new_match(host, server_url, "Arctic Scavengers", {"East Tribe": "invite"}, "#board .arctic",
                        choices={"GameBench: short game": True, "Contested resources": "1"})
        invite = host.get_by_label("Invite link for East Tribe").input_value()
        guest.goto(invite)
        guest.get_by_role("button", name="Join as East Tribe").click()
        guest.wait_for_selector("#board .arctic")
        wait_until_live(host)
        wait_until_live(guest)
        deadline = time.monotonic() + 90
        saw_last_action = False
        while result_text(host) is None or result_text(guest) is None:
            assert time.monotonic() < deadline, "the game did not finish in time"
            mover = next((p for p in (host, guest) if p.locator(CLICKABLE).count() and result_text(p) is None), None)
            if mover is None:
                host.wait_for_timeout(40)
                continue
            other = guest if mover is host else host
            before = board_version(other)
            choose(mover).click()
            wait_past(other, before)  # the other page follows
            saw_last_action = saw_last_action or other.locator("#board .tribe .last").count() > 0
            # Cards are drawn only in the page's own hand (and its own dig): another tribe's hand is a count.
            assert other.locator("#board .acard").count() == other.locator(
                "#board .arctic-hand .acard, #board .arctic-dig .acard").count()
        assert saw_last_action
        results = {result_text(host), result_text(guest)}
        # Who won, then why (State.end_reason): the single contested resource was the last one.
        assert all(r.startswith("The match ended in a draw. ") for r in results) or (
            any(r.startswith("You won! ") for r in results) and any(r.startswith("You lost.") for r in results))
        assert all("The contested pile ran out after round 1" in r for r in results), results
        host.screenshot(path=str(ARTIFACTS / "arctic-two-people-end.png"), full_page=True)
    finally:
        host_ctx.close()
        guest_ctx.close()
