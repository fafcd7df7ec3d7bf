"""Issue 39, point 1, in the browser: from a match page of every game, a person opens the help panel beside the board
(the game in brief and how to win), follows it to the full rules in a new tab, and finds there how to win and the
glossary of every kind of action (whose coverage of the engine's labels tests/gameplay/test_rules_pages.py checks)."""

from __future__ import annotations

import re

from gameplay.engines.registry import all_specs
from tests.browser.santorini_player import wait_until_live

SPECS = sorted(all_specs(), key=lambda spec: spec.name)


def test_every_games_rules_open_from_its_match_page(phone_page, server_url):
    page = phone_page
    for spec in SPECS:
        page.goto(server_url + "/")
        page.get_by_role("link", name=f"New {spec.name} match").click()
        page.get_by_role("button", name="Start match").click()  # the form's seats: me, then the random agent
        page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        wait_until_live(page)

        panel = page.locator("details#help")
        panel.locator("summary").click()
        assert panel.get_attribute("open") is not None, spec.id
        assert "How to win" in panel.inner_text(), spec.id
        with page.context.expect_page() as opened:
            panel.get_by_role("link", name=f"The full rules of {spec.name}").click()
        rules = opened.value
        rules.wait_for_load_state()
        assert rules.url.endswith(f"/games/{spec.id}/rules/"), rules.url
        assert rules.get_by_role("heading", level=1).inner_text() == f"How to play {spec.name}"
        winning = rules.locator("section#winning").inner_text()
        assert len(winning.split()) > 10, (spec.id, winning)
        assert rules.locator(".action-glossary dt[data-action]").count() > 0, spec.id
        # The brief in the panel is the page's own brief: one text, never two that could disagree.
        assert " ".join(panel.locator(".help-body p").first.inner_text().split()) in " ".join(
            rules.locator("section#brief").inner_text().split()
        ), spec.id
        rules.close()
