"""Draw offers and aborting in the browser (issue 16, point 4): two people at a Hive table agree a draw (one
offers, the other sees the offer live and accepts); a declined offer goes away for both; then a rematch with sides
swapped (issue 39); a game that has hardly begun can be aborted without a result."""

from __future__ import annotations

import re

from tests.browser.santorini_player import wait_until_live


def hive_for_two(chromium, server_url):
    """A Hive match between two browsers, the guest joined through the invite link; both pages live."""
    host_ctx, guest_ctx = chromium.new_context(), chromium.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    host.goto(server_url + "/")
    host.get_by_role("link", name="New Hive match").click()
    host.get_by_label("Black").select_option("invite")
    host.get_by_role("button", name="Start match").click()
    host.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    guest.goto(host.get_by_label("Invite link for Black").input_value())
    guest.get_by_role("button", name="Join as Black").click()
    for page in (host, guest):
        page.wait_for_selector("#board .hive-board")
        wait_until_live(page)
    host.wait_for_selector("#status.your-turn")
    return (host_ctx, guest_ctx), host, guest


def offer_draw(page) -> None:
    page.get_by_text("Resign, offer a draw or leave…").click()
    page.get_by_role("button", name="Offer a draw").click()
    page.wait_for_selector("text=You offered a draw.")


def test_one_offers_a_draw_the_other_declines_then_accepts(chromium, server_url):
    contexts, host, guest = hive_for_two(chromium, server_url)
    try:
        offer_draw(host)
        guest.wait_for_selector("text=White offers a draw.")  # live, without reloading
        guest.get_by_role("button", name="Decline").click()
        guest.wait_for_selector("text=White offers a draw.", state="detached")
        host.wait_for_selector("text=You offered a draw.", state="detached")
        offer_draw(host)
        guest.wait_for_selector("text=White offers a draw.")
        guest.get_by_role("button", name="Accept the draw").click()
        for page in (host, guest):
            page.wait_for_selector("#result")
            assert page.locator("#result").inner_text() == "Drawn by agreement."
        assert host.get_by_text("Resign, offer a draw or leave…").count() == 0
        # A rematch, sides swapped (issue 39): one asks, the other sees it live and joins; White is now the guest.
        host.get_by_role("button", name="Rematch, sides swapped").click()
        host.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        guest.get_by_role("button", name="Join the rematch").click()  # drawn in by the socket, no reload
        guest.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for page in (host, guest):
            page.wait_for_selector("#board .hive-board")
            wait_until_live(page)
        assert "you are Black" in host.locator("h1").inner_text()
        assert "you are White" in guest.locator("h1").inner_text()
        guest.wait_for_selector("#status.your-turn")
    finally:
        for context in contexts:
            context.close()


def test_a_game_that_has_hardly_begun_is_aborted(chromium, server_url):
    contexts, host, guest = hive_for_two(chromium, server_url)
    try:
        guest.get_by_text("Resign, offer a draw or leave…").click()
        guest.get_by_role("button", name="Abort the game").click()
        for page in (host, guest):
            page.wait_for_selector("text=This match has ended without a result (aborted before the game got going).")
        assert host.locator("#board .hive-overlay polygon.pick, #board button.hand-piece").count() == 0
    finally:
        for context in contexts:
            context.close()


def test_the_new_match_form_offers_only_agents_that_play_the_game(laptop_page, server_url):
    """Issue 16, point 5: agents declare their games; Santorini's form has no Gnomes agent, Gnomes' form has them."""
    page = laptop_page
    options = "sel => [...document.querySelector(sel).options].map(o => o.value)"
    page.goto(server_url + "/")
    page.get_by_role("link", name="New Santorini match").click()
    santorini = page.evaluate(options, "select[name=seat_1]")
    assert "agent:random" in santorini and not [v for v in santorini if v.startswith("agent:gnomes")]
    page.goto(server_url + "/")
    page.get_by_role("link", name="New Gnomes at Night match").click()
    gnomes = page.evaluate(options, "select[name=seat_1]")
    assert {"agent:gnomes-comm", "agent:gnomes-mute"} <= set(gnomes)
