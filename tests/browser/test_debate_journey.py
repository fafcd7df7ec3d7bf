"""Debate in the browser: two people, each in their own phone-sized browser on one match's links, argue one round
each (a style picked, the word counter following the text) and get the rule's verdict (no judge model is
configured on the test server, so the game's rule decides after the last argument)."""

from __future__ import annotations

import re

from .conftest import ARTIFACTS
from .new_match import phone, start_new_match

FOR_TEXT = "Breakfast matters because 9 in 10 pupils focus better after eating it."
AGAINST_TEXT = "Plenty of people skip it and feel fine."


def test_two_people_debate_to_the_rules_verdict(chromium, server_url):
    (c1, pro), (c2, con) = phone(chromium), phone(chromium)
    try:
        start_new_match(pro, server_url, "Debate", {"Against": "invite"},
                        choices={"Topic": "0", "Arguments per side": "1"})
        con.goto(pro.get_by_label("Invite link for Against").input_value())
        con.get_by_role("button", name="Join as Against").click()
        con.wait_for_url(re.compile(r"/play/[\w-]+/$"))

        pro.wait_for_selector(".debate-form")
        assert "Breakfast is the most important meal of the day." in con.locator(".debate-topic").inner_text()
        assert con.locator(".debate-form").count() == 0  # not Against's turn: no argument box

        pro.get_by_label("Style").select_option("argue:logos")
        pro.get_by_label("Your argument").fill(FOR_TEXT)
        assert pro.locator("#debate-words").inner_text() == "12 of 150 words"
        pro.screenshot(path=str(ARTIFACTS / "debate-phone-for-writing.png"), full_page=True)
        pro.get_by_role("button", name="Argue").click()

        con.wait_for_selector('.debate-form')
        argument = con.locator('.argument[data-seat="0"]')
        assert FOR_TEXT in argument.inner_text() and "logos" in argument.inner_text()
        con.get_by_label("Style").select_option("argue:pathos")
        con.get_by_label("Your argument").fill(AGAINST_TEXT)
        con.get_by_role("button", name="Argue").click()

        for page in (pro, con):
            page.wait_for_selector("#verdict")
            assert "Verdict: For wins" in page.locator("#verdict").inner_text()
            assert "by the game's rule" in page.locator("#verdict").inner_text()
            page.wait_for_selector("#result")
        assert con.locator('.argument[data-seat="1"][data-style="pathos"]').count() == 1
        assert pro.evaluate("document.documentElement.scrollWidth") <= 390
        con.screenshot(path=str(ARTIFACTS / "debate-phone-verdict.png"), full_page=True)
    finally:
        c1.close()
        c2.close()
