"""The new-match form on a phone shows only the seats of the chosen number of players (issue 39, point 4):
static/js/new_match.js hides and disables the others when the Players select changes, and on page load."""

from __future__ import annotations

import re

SEATS = "#seats select"
MIN_TARGET_PX = 44  # the site's touch targets (static/css/site.css)


def visible_seats(page) -> list[str]:
    return page.locator(f"{SEATS}:visible").evaluate_all("selects => selects.map(s => s.name)")


def test_two_rooms_shows_the_seats_of_the_chosen_number_of_players(phone_page, server_url):
    page = phone_page
    page.goto(server_url + "/")
    page.get_by_role("link", name="New Two Rooms and a Boom match").click()
    page.wait_for_load_state()  # the click waits only for the new page to start; the deferred script runs before load
    players = page.get_by_label("Players", exact=True)
    assert players.input_value() == "6"
    assert visible_seats(page) == [f"seat_{i}" for i in range(6)]
    # The seats left out are disabled too, so Tab never reaches them and the form does not send them.
    assert page.locator(f"{SEATS}:disabled").count() == page.locator(SEATS).count() - 6
    # With the keyboard: Tab from the last seat in play goes on to the options, past the seats left out.
    page.get_by_label("Player 6", exact=True).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.name") == "opt_talk_budget"
    assert page.get_by_role("group", name="Who plays each seat").is_visible()
    assert page.get_by_role("group", name="Options").is_visible()
    # The options read as people say them, not as identifiers.
    assert page.get_by_label("Parley messages per Leader").is_visible()

    players.select_option("10")
    assert visible_seats(page) == [f"seat_{i}" for i in range(10)]
    assert page.get_by_label("Player 10", exact=True).is_enabled()
    for seat in page.locator(f"{SEATS}:visible").all():
        assert seat.bounding_box()["height"] >= MIN_TARGET_PX

    players.select_option("8")
    assert visible_seats(page) == [f"seat_{i}" for i in range(8)]
    assert page.get_by_label("Player 9", exact=True).is_disabled()

    # The default seats: this browser on Player 1, the random agent on the others.
    assert page.get_by_label("Player 1", exact=True).input_value() == "you"
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
