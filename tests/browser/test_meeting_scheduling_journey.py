"""Meeting Scheduling in the browser: two people on phones, each in their own browser context, negotiate in the
fixed (OpenSpiel Bob/Suzy) scenario. Player 1 picks Thursday in the day picker with a message; Player 2, who sees
only her own schedule, accepts it; both then see the result with each side's payoff (Thursday: 3 and 1) and both
schedules revealed."""

from __future__ import annotations

import re

from .conftest import ARTIFACTS
from .new_match import phone, wait_version


def test_two_people_agree_on_thursday_and_both_see_the_payoffs(chromium, server_url):
    (c1, p1), (c2, p2) = phone(chromium), phone(chromium)
    try:
        p1.goto(server_url + "/")
        p1.get_by_role("link", name="New Meeting Scheduling match").click()
        p1.get_by_label("Scenario").select_option("fixed")
        p1.get_by_label("Player 2", exact=True).select_option("invite")
        p1.get_by_role("button", name="Start match").click()
        p1.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        p2.goto(p1.get_by_label("Invite link for Player 2").input_value())
        p2.get_by_role("button", name="Join as Player 2").click()
        p2.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        p1.wait_for_selector("#board .ms-move-form")
        p2.wait_for_selector("#board .ms-private")
        version = int(p1.locator("#board").get_attribute("data-version"))

        # Each sees only its own schedule; Bob's out-of-office Tuesday is not a day he may propose.
        assert "Out of office" in p1.locator(".ms-private tr[data-day=tuesday]").inner_text()
        assert p1.locator(".ms-days input[value='propose:tuesday']").count() == 0
        assert "15" in p1.locator(".ms-private tr[data-day=wednesday]").inner_text()
        assert p2.locator(".ms-move-form").count() == 0
        assert "15" not in p2.locator("#board").inner_text()  # Bob's value for Wednesday
        # The board's one form stands in for the generic per-action forms.
        assert not p1.locator("#actions .text-action").first.is_visible()
        p1.screenshot(path=str(ARTIFACTS / "meeting-phone-p1-start.png"), full_page=True)

        p1.get_by_role("radio", name="Thursday", exact=True).check()
        p1.get_by_label("Your message").fill("Hello Suzy, shall we meet on Thursday?")
        p1.get_by_role("button", name="Send").click()
        version += 1
        wait_version([p1, p2], version)
        for page in (p1, p2):
            assert "shall we meet on Thursday?" in page.locator(".ms-thread").inner_text()
            assert "proposed Thursday" in page.locator(".ms-standing").inner_text()

        p2.get_by_role("radio", name="Accept Thursday").check()
        p2.get_by_label("Your message").fill("Thursday works for me.")
        p2.get_by_role("button", name="Send").click()
        version += 1
        wait_version([p1, p2], version)
        for page in (p1, p2):
            page.wait_for_selector("#ms-result-text")
            assert "Agreement on Thursday" in page.locator("#ms-result-text").inner_text()
            payoffs = page.locator(".ms-profile .ms-payoff").all_inner_texts()
            assert payoffs == ["3", "1"]
            assert page.locator(".ms-move-form").count() == 0
        assert "you get 3" in p1.locator("#ms-result-text").inner_text()
        assert "you get 1" in p2.locator("#ms-result-text").inner_text()
        # Both schedules are revealed with the result: Suzy now sees Bob's Wednesday value.
        assert "15" in p2.locator(".ms-profile[data-seat='0']").inner_text()
        width = p2.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        p2.screenshot(path=str(ARTIFACTS / "meeting-phone-p2-result.png"), full_page=True)
    finally:
        c1.close()
        c2.close()
