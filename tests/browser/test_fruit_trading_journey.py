"""Fruit Trading in the browser: two people on phones, each in their own browser on one match's links. Player 1
builds an offer with the steppers (give 1 banana, get 2 kiwis) and a message; Player 2 sees it worth +3 points to
them, accepts with a message, and both see the trade and both payoffs (Player 1 +1, Player 2 +3: the fixed
scenario of the rules sheet). Each page shows only its own basket until the end."""

from __future__ import annotations

import re

from .conftest import ARTIFACTS
from .new_match import phone, start_new_match, wait_version


def test_two_people_agree_a_swap_built_with_the_offer_builder(chromium, server_url):
    (c1, p1), (c2, p2) = phone(chromium), phone(chromium)
    try:
        start_new_match(p1, server_url, "Fruit Trading", {"Player 2": "invite"})
        p2.goto(p1.get_by_label("Invite link for Player 2").input_value())
        p2.get_by_role("button", name="Join as Player 2").click()
        p2.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        p1.wait_for_selector("form.fruit-builder")
        p2.wait_for_selector(".fruit-private")
        version = int(p1.locator("#board").get_attribute("data-version"))

        # Each sees its own basket only; the other's points never reach the page.
        basket1 = p1.locator(".fruit-private").inner_text()
        assert "banana\t2\t5" in basket1 or "banana 2 5" in " ".join(basket1.split())
        assert "apple=8" not in p1.content() and "apple=10" not in p2.content()
        assert p2.locator("form.fruit-builder").count() == 0  # not Player 2's turn

        # The builder composes the offer: give 1 banana, get 2 kiwis; a same-fruit swap is explained, not sent.
        p1.get_by_label("Give bananas").fill("1")
        p1.get_by_label("Get bananas").fill("1")
        assert "same fruit" in p1.locator(".fruit-offer-status").inner_text()
        p1.get_by_label("Get bananas").fill("0")
        p1.get_by_label("Get kiwis").fill("2")
        assert p1.get_by_label("Offer").input_value() == "propose:banana1:kiwi2"
        assert "you give 1 banana, you get 2 kiwis" in p1.locator(".fruit-offer-status").inner_text()
        p1.locator("form.fruit-builder").get_by_label("Message", exact=True).fill("One banana for two kiwis?")
        p1.screenshot(path=str(ARTIFACTS / "fruit-phone-p1-builder.png"), full_page=True)
        p1.get_by_role("button", name="Propose").click()
        version += 1
        wait_version([p1, p2], version)

        offer = p2.locator('.fruit-offers li[data-offer-seat="0"]').inner_text()
        assert "Player 1 gives 1 banana and gets 2 kiwis" in offer and "Worth +3 points to you" in offer
        assert "One banana for two kiwis?" in p2.locator(".fruit-thread").inner_text()
        p2.screenshot(path=str(ARTIFACTS / "fruit-phone-p2-offer.png"), full_page=True)
        reply = p2.locator("form.fruit-reply")
        reply.get_by_label("Accept the other player's offer").check()
        reply.get_by_label("Message", exact=True).fill("Deal!")
        reply.get_by_role("button", name="Send").click()
        version += 1
        wait_version([p1, p2], version)

        for page in (p1, p2):
            result = page.locator(".fruit-result").inner_text()
            assert "Player 1: +1 points" in result and "Player 2: +3 points" in result
            assert "apple=10" in result and "apple=8" in result  # both profiles revealed at the end
            assert page.locator("form.fruit-builder").count() == 0
            page.wait_for_selector("#result")
        p2.screenshot(path=str(ARTIFACTS / "fruit-phone-p2-result.png"), full_page=True)
        assert p1.evaluate("document.documentElement.scrollWidth") <= 390

        # The replay draws the same board from the recorded views, stepping through the conversation.
        p1.get_by_role("link", name="Watch the replay").click()
        p1.wait_for_selector(".fruit-result")
        assert "Player 1: +1 points" in p1.locator(".fruit-result").inner_text()
        assert "One banana for two kiwis?" in p1.locator(".fruit-thread").inner_text()
    finally:
        c1.close()
        c2.close()
