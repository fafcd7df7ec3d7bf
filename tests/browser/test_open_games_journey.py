"""Joining an open game from the lobby (issue 39, point 3): a visitor on a phone has the lobby open; a host on a
laptop starts a Santorini match listed in the lobby; the game appears in the visitor's lobby by itself, the visitor
joins with one tap and both boards start; the game then leaves the lobby."""

from __future__ import annotations

import re

from tests.browser.conftest import ARTIFACTS
from tests.browser.santorini_player import wait_until_live


def test_a_visitor_joins_a_listed_game_from_the_lobby(chromium, server_url, phone_page):
    visitor = phone_page
    visitor.goto(server_url + "/")
    assert visitor.get_by_role("heading", name="Open games").is_visible()

    host_ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        host = host_ctx.new_page()
        host.set_default_timeout(10_000)
        host.goto(server_url + "/games/santorini/new/")
        host.get_by_label("Player 2").select_option("invite")
        host.get_by_label("List in the lobby").check()
        host.get_by_role("button", name="Start match").click()
        host.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        wait_until_live(host)
        number = re.search(r"match #(\d+)", host.locator("h1").inner_text()).group(1)
        assert "Waiting for Player 2 to join." in host.locator("#status").inner_text()
        assert "listed in the lobby" in host.locator(".invites").inner_text()

        # The visitor's lobby redraws its open games every few seconds: no reload.
        join = visitor.get_by_role("button", name=f"Join Santorini match #{number}")
        join.wait_for(timeout=15_000)
        entry = visitor.locator(f'.open-game[data-match="{number}"]')
        assert "Player 2: free" in entry.inner_text()
        visitor.screenshot(path=str(ARTIFACTS / "lobby-open-games-phone.png"), full_page=True)
        join.click()
        visitor.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        visitor.wait_for_selector("#board .santorini")
        assert "you are Player 2" in visitor.locator("h1").inner_text()
        host.wait_for_selector("#status.your-turn")  # everyone is here: the host's page starts by itself

        # Taken: the lobby no longer offers it, to the visitor or anyone else.
        visitor.goto(server_url + "/")
        assert visitor.locator(f'.open-game[data-match="{number}"]').count() == 0
        host.goto(server_url + "/")
        assert host.locator(f'.open-game[data-match="{number}"]').count() == 0
    finally:
        host_ctx.close()
