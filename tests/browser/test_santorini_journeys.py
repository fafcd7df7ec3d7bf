"""User journeys in a real browser: a person plays Santorini to the end against the random agent,
two people play each other through an invite link, and the board works from the keyboard."""

import re
import time

from tests.browser.conftest import ARTIFACTS
from tests.browser.santorini_player import (
    board_version,
    click_climbing,
    click_something,
    result_text,
    start_match,
    wait_for_board_change,
    wait_until_playable,
)

# True once the tab's title and the page agree on whether it is this seat's turn (static/js/turn_cue.js).
TITLE_FOLLOWS_TURN = """() => document.title.startsWith('(Your turn) ') ===
  (!!document.querySelector('#status.your-turn') && !document.getElementById('result'))"""
# Why a game of the published rules ended, as the status line adds it after who won (SantoriniState.end_reason).
ENDING = (r"(Player [12]'s worker [ABab] moved up from level 2 onto level 3 on [A-E][1-5]\.|"
          r"Player [12] had no legal move: both workers were blocked in\.)")


def test_person_beats_or_loses_to_random_agent_on_a_phone(phone_page, server_url):
    page = phone_page
    start_match(page, server_url, "agent:random")
    assert page.locator("#status").inner_text().startswith("Your turn")
    page.screenshot(path=str(ARTIFACTS / "santorini-start.png"), full_page=True)

    clicks = 0
    deadline = time.monotonic() + 120
    while result_text(page) is None:
        assert time.monotonic() < deadline, "match did not finish in time"
        wait_until_playable(page)
        if result_text(page) is not None:
            break
        before = page.locator("#board").inner_html()
        assert click_something(page), "my turn, but nothing on the board is clickable"
        clicks += 1
        if clicks == 12:
            page.screenshot(path=str(ARTIFACTS / "santorini-middle.png"), full_page=True)
        wait_for_board_change(page, before)

    page.screenshot(path=str(ARTIFACTS / "santorini-end.png"), full_page=True)
    assert re.fullmatch(rf"(You won!|You lost\. Player 2 won\.) {ENDING}", result_text(page)), result_text(page)
    assert clicks >= 6  # two placements, then at least one move (select + target) and build
    # The finished match is listed with its result and can be replayed step by step.
    page.goto(server_url + "/matches/")
    assert page.locator("table.matches").inner_text().count("Finished") >= 1
    page.get_by_role("link", name="replay").first.click()
    page.get_by_role("link", name="◀ Back").click()
    page.wait_for_url(re.compile(r"step=\d+"))
    assert page.locator(".santorini").count() == 1


def test_two_people_play_through_an_invite_link(chromium, server_url):
    host_ctx, guest_ctx = chromium.new_context(), chromium.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    try:
        start_match(host, server_url, "invite")
        # Nobody moves before everyone is here: the host is told so and has nothing to click yet.
        assert "Waiting for Player 2 to join." in host.locator("#status").inner_text()
        assert host.locator("#board .santorini button.cell").count() == 0
        invite = host.get_by_label("Invite link for Player 2").input_value()
        assert "/invite/" in invite
        guest.goto(invite)
        guest.get_by_role("button", name="Join as Player 2").click()
        guest.wait_for_selector("#board .santorini")
        host.wait_for_selector("#status.your-turn")  # the host's page starts by itself
        assert host.locator("#board .santorini button.cell").count() > 0
        assert "Waiting for Player 1" in guest.locator("#status").inner_text()
        # The turn cue (issue 39): the tab's title says "(Your turn)" while it is, and only then.
        host.wait_for_function(TITLE_FOLLOWS_TURN)
        assert host.title().startswith("(Your turn) ") and not guest.title().startswith("(Your turn)")
        # The link was single-use: a third browser finds the seat taken, even with the guest's own seat URL.
        third_ctx = chromium.new_context()
        try:
            third = third_ctx.new_page()
            third.goto(invite)
            assert "This seat is taken" in third.locator("main, body").first.inner_text()
            assert third.get_by_role("button", name="Join as Player 2").count() == 0
            third.goto(guest.url)
            assert "This seat is taken" in third.locator("body").inner_text()
            assert third.locator("#board").count() == 0
        finally:
            third_ctx.close()
        # Chat reaches the other person live.
        host.get_by_label("Message").fill("good luck!")
        host.get_by_label("Message").press("Enter")
        guest.wait_for_selector("#chat-log >> text=good luck!")

        deadline = time.monotonic() + 120
        while result_text(host) is None:
            assert time.monotonic() < deadline, "match did not finish in time"
            mover = host if host.locator("#status.your-turn").count() else guest
            other = guest if mover is host else host
            before_other = board_version(other)
            before = mover.locator("#board").inner_html()
            # Both race upwards (a whole game, to a win, in about 25 actions instead of the 59 of first squares).
            assert click_climbing(mover)
            wait_for_board_change(mover, before)
            if board_version(mover) != before_other:  # an action was applied: the other page follows
                other.wait_for_function(
                    "v => document.querySelector('#board').dataset.version === v", arg=board_version(mover)
                )
                for page in (mover, other):  # when the turn arrives (or leaves), the title follows
                    page.wait_for_function(TITLE_FOLLOWS_TURN)
        assert not host.title().startswith("(Your turn)") and not guest.title().startswith("(Your turn)")
        # One page says "You won!", the other who won; both then say why, in the same words.
        won, lost = sorted((result_text(host), result_text(guest)), key=lambda text: not text.startswith("You won!"))
        why = re.fullmatch(rf"You won! {ENDING}", won)
        assert why, won
        assert re.fullmatch(rf"You lost\. Player [12] won\. {re.escape(why.group(1))}", lost), lost
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_board_is_playable_from_the_keyboard(laptop_page, server_url):
    page = laptop_page
    start_match(page, server_url, "agent:random")
    # Two placements by keyboard: focus a highlighted square, press Enter.
    for expected_version in ("1", "2"):
        before = page.locator("#board").inner_html()
        page.locator("#board button.cell.target").first.focus()
        page.keyboard.press("Enter")
        wait_for_board_change(page, before)
        page.wait_for_function("v => Number(document.querySelector('#board').dataset.version) >= v",
                               arg=int(expected_version))
    assert page.locator("#board .santorini .worker.seat0").count() == 2
    # Selecting a worker by keyboard redraws the board: the keyboard stays on that worker's square.
    wait_until_playable(page)
    worker = page.locator("#board button.cell.pick:not(.selected)").first
    cell = worker.get_attribute("data-cell")
    before = page.locator("#board").inner_html()
    worker.focus()
    page.keyboard.press("Enter")
    wait_for_board_change(page, before)
    assert page.locator(f'#board button.cell.selected[data-cell="{cell}"]').count() == 1
    assert page.evaluate("document.activeElement.getAttribute('data-cell')") == cell
    # The list of all legal actions is reachable by keyboard too.
    page.get_by_text(re.compile(r"All legal actions")).focus()
    page.keyboard.press("Enter")
    assert page.locator(".action-list button").count() > 0


def test_resigning_ends_the_match_with_the_right_result(phone_page, server_url):
    """Resign (issue 16.4): folded away behind "Resign or leave…", one more press to confirm; the match ends at once
    and the page says who won."""
    page = phone_page
    start_match(page, server_url, "agent:random")
    page.get_by_text("Resign or leave…").click()
    page.get_by_role("button", name="Resign", exact=True).click()
    page.wait_for_selector("#result")
    assert result_text(page) == "You resigned. Player 2 won."
    assert page.locator("#board .santorini button.cell").count() == 0
    assert page.get_by_text("Resign or leave…").count() == 0
