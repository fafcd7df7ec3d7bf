"""Are You the Traitor? in the browser: four people, each in their own phone-sized browser on one match's links,
play a whole seeded game of two rounds (max_rounds 2, one turn of talk before the Key must go). Each sees only its
own role card. Round 1: they talk, the Good Wizard calls Stop on the Traitor, and every page shows the resolution;
nobody holds a Magic Ring, so nobody clicks: the step's clock (10 s) runs out and round 2 begins by itself. Round 2:
the Traitor bluffs, the Keyholder gives the Key to the Good Wizard, the new ring's holder uses it while the others do
nothing, and the game ends on every page.

Seed 1 at 4 seats deals round 1: Player 1 Guard, Player 2 Traitor, Player 3 Keyholder, Player 4 Good Wizard (talk
from Player 1); round 2: Player 1 Good Wizard, Player 2 Traitor, Player 3 Keyholder, Player 4 Guard (talk from
Player 2). In round 2 Player 3 draws a Magic Ring and takes Player 4's Silver Goblet with it, which makes Player 3
the winner with 7 points."""

from __future__ import annotations

import re

from .conftest import ARTIFACTS
from .journey_support import serious_violations
from .new_match import phone, wait_version

SEED = 1
# What each role card says of its holder, round by round; no other page may carry it.
ROUND1 = {0: ("Guard", "You are a Guard"), 1: ("Traitor", "You are a Traitor"),
          2: ("Keyholder", "You are the Keyholder"), 3: ("Good Wizard", "your secret alignment is Good")}
ROUND2 = {0: ("Good Wizard", "your secret alignment is Good"), 1: ("Traitor", "You are a Traitor"),
          2: ("Keyholder", "You are the Keyholder"), 3: ("Guard", "You are a Guard")}


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def check_role_cards(pages, roles) -> None:
    """Each page shows its own role card; the other pages' HTML lacks its words entirely."""
    html = [page.content() for page in pages]
    for seat, page in enumerate(pages):
        character, words = roles[seat]
        card = page.locator("#board .traitor-role")
        assert card.get_attribute("data-character") == character
        assert words in card.inner_text()
        for other in range(len(pages)):
            if other != seat and roles[other][1] != words:
                assert words not in html[other], f"Player {seat + 1}'s role reached Player {other + 1}"


def say(page, text: str) -> None:
    page.locator("#traitor-say-text").fill(text)
    page.get_by_role("button", name="Say", exact=True).click()


def ring_step_passes_by_itself(pages, holding_none, version: int) -> int:
    """The Magic Ring step: the seats ``holding_none`` read that they have nothing to do and click nothing; each
    page's countdown ends the step (one timeout per seat still in it), and the match moves on without them."""
    for seat in holding_none:
        board = pages[seat].locator("#board")
        assert "You hold none, so there is nothing for you to do" in board.locator(".traitor-turn").inner_text()
        assert board.locator('[data-action-id="keep_ring"]').inner_text().strip() == "Go on now"
    version += len(holding_none)
    for page in pages:
        page.wait_for_selector(f'#board[data-version="{version}"]', timeout=30_000)
    return version


def test_four_people_play_a_whole_game_from_invite_links(chromium, server_url):
    contexts, pages = zip(*(phone(chromium) for _ in range(4)), strict=True)
    p1, p2, p3, p4 = pages
    try:
        p1.goto(server_url + "/")
        p1.get_by_role("link", name="New Are You the Traitor? match").click()
        p1.get_by_label("Seed").fill(str(SEED))
        p1.get_by_label("Players").select_option("4")
        p1.get_by_label("Round cap").fill("2")
        p1.get_by_label("Turns of talk before the Key is handed over").fill("1")
        for name in ("Player 2", "Player 3", "Player 4"):
            p1.get_by_label(name, exact=True).select_option("invite")
        p1.get_by_role("button", name="Start match").click()
        p1.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for guest, name in ((p2, "Player 2"), (p3, "Player 3"), (p4, "Player 4")):
            guest.goto(p1.get_by_label(f"Invite link for {name}").input_value())
            guest.get_by_role("button", name=f"Join as {name}").click()
            guest.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for page in pages:
            page.wait_for_selector('#board .traitor[data-phase="talk"]')
        p1.wait_for_selector('#board .traitor[data-my-turn="yes"]')
        version = int(p1.locator("#board").get_attribute("data-version"))

        # Round 1. The table is public: Player 4 is a Wizard, everyone has 0 cards; points only in one's own row.
        check_role_cards(pages, ROUND1)
        for page in pages:
            table = page.locator("#board .traitor-seats")
            assert table.locator('.seat[data-seat="3"] .tag.wizard').inner_text() == "Wizard"
            assert table.locator(".mine-pts").count() == 1
            assert table.locator(".seat.you .mine-pts").inner_text() == "Your points: 0"
            assert no_horizontal_scroll(page)
        assert "Stop! Point at…" in p1.locator("#board .traitor-stop legend").inner_text()
        assert p2.locator("#board .traitor-controls").count() == 0  # not Player 2's turn
        p1.screenshot(path=str(ARTIFACTS / "traitor-phone-p1-start.png"), full_page=True)

        say(p1, "I am a Guard. Player 2, what are you?")
        version += 1
        wait_version(pages, version)
        # Player 2 is the Traitor: it may talk or pass, never call Stop.
        assert p2.locator("#board .traitor-stop").count() == 0
        assert p2.locator('#board [data-action-id="pass"]').count() == 1
        say(p2, "A Guard too, trust me.")
        version += 1
        wait_version(pages, version)
        # Player 3 is the Keyholder: its Stop can only give the Key to the Wizard.
        picker = p3.locator("#board .traitor-stop")
        assert picker.locator("legend").inner_text() == "Give the Key to…"
        assert picker.get_by_role("radio").count() == 1
        p3.screenshot(path=str(ARTIFACTS / "traitor-phone-p3-keyholder.png"), full_page=True)
        say(p3, "Two Guards at a table of four? Someone is lying.")
        version += 1
        wait_version(pages, version)
        log = p4.locator("#board .talk-log")
        assert log.locator(".talk-line").count() == 3
        assert "A Guard too, trust me." in log.inner_text()
        assert p1.locator("#board .talk-line.mine .said").inner_text() == "I am a Guard. Player 2, what are you?"
        p4.screenshot(path=str(ARTIFACTS / "traitor-phone-p4-talk.png"), full_page=True)

        # Player 4, the Good Wizard, points at Player 2: a Traitor, so Good wins and ends the round at once.
        p4.get_by_role("radio", name="Player 2").check()
        p4.get_by_role("button", name="Call Stop").click()
        version += 1
        wait_version(pages, version)
        for page in pages:
            board = page.locator("#board")
            res = board.locator(".traitor-resolution")
            assert res.locator("h3").inner_text() == "Round 1: team Good wins"
            assert "Player 4 called Stop on Player 2." in res.inner_text()
            assert res.locator(".traitor-reveal li").count() == 4
            for name, character in (("Player 1", "Guard"), ("Player 2", "Traitor"), ("Player 3", "Keyholder"),
                                    ("Player 4", "Good Wizard")):
                row = res.locator(f'.traitor-reveal li[data-seat="{int(name[-1]) - 1}"]')
                assert row.locator(".character").inner_text() == character
            assert res.locator(".tag.won").count() == 3
            assert board.locator(".traitor-role").count() == 0  # roles are public now: no secret card
            assert no_horizontal_scroll(page)
        # Each winner reads its own draw; the others only that it drew a card. Points stay private.
        assert "Player 1 drew Bag of Gold (3)." in p1.locator("#board .treasure-lines").inner_text()
        assert "Player 1 drew a treasure card." in p2.locator("#board .treasure-lines").inner_text()
        assert "Bag of Gold" not in p2.content() and "Bag of Gold" not in p4.content()
        assert p1.locator("#board .seat.you .mine-pts").inner_text() == "Your points: 3"
        for page in pages:
            page.screenshot(path=str(ARTIFACTS / f"traitor-phone-p{pages.index(page) + 1}-resolution.png"),
                            full_page=True)
        version = ring_step_passes_by_itself(pages, (0, 1, 2, 3), version)

        # Round 2: new secret roles; Player 2 talks first.
        for page in pages:
            page.wait_for_selector('#board .traitor[data-round="2"][data-phase="talk"]')
        check_role_cards(pages, ROUND2)
        assert "Good won" in p2.locator("#board .traitor-last summary").inner_text()
        say(p2, "I am the Keyholder, give me nothing.")
        version += 1
        wait_version(pages, version)
        picker = p3.locator("#board .traitor-stop")
        assert picker.locator("legend").inner_text() == "Give the Key to…"
        picker.get_by_role("radio", name="Player 1").check()
        p3.screenshot(path=str(ARTIFACTS / "traitor-phone-p3-give-key.png"), full_page=True)
        picker.get_by_role("button", name="Give the Key").click()
        version += 1
        wait_version(pages, version)
        for page in pages:
            res = page.locator("#board .traitor-resolution")
            assert res.locator("h3").inner_text() == "Round 2: team Good wins"
            assert "Player 3 gave the Key to Player 1." in res.inner_text()
        # Player 3 drew a Magic Ring: it may take a random card from Player 1 or Player 4 (not from itself, the caller
        # who won). The others have nothing to do and do nothing.
        ring = p3.locator("#board .traitor-ring")
        assert ring.locator(".ring-targets button").count() == 2
        assert "Magic Ring (1)" in p3.locator("#board .my-treasure").inner_text()
        p3.screenshot(path=str(ARTIFACTS / "traitor-phone-p3-ring.png"), full_page=True)
        ring.get_by_role("button", name="Use a Magic Ring: take a random card from Player 4 (2 cards)").click()
        version += 1
        wait_version(pages, version)
        assert "Player 3 took Silver Goblet (2) from Player 4 with a Magic Ring." in p4.locator(
            "#board .treasure-lines").inner_text()
        assert "Player 3 used a Magic Ring on Player 4 and took a card at random." in p1.locator(
            "#board .treasure-lines").inner_text()
        assert "Silver Goblet" not in p1.content() and "Silver Goblet" not in p2.content()
        version = ring_step_passes_by_itself(pages, (0, 1, 3), version)

        # The end, on every page: winners, every total and treasure.
        for page in pages:
            page.wait_for_selector("#result")
            final = page.locator("#board .traitor-final")
            assert "Game over" in final.inner_text()
            assert final.locator(".final-rows li").count() == 4
            assert page.locator("#board .traitor-controls").count() == 0
            assert no_horizontal_scroll(page)
        assert p1.locator("#board .traitor-final .winners").inner_text() == "Winner: Player 3"
        first = p2.locator("#board .final-rows li").first.inner_text()
        assert first.startswith("Player 3") and "winner" in first and "7 points" in first
        assert p2.locator("#result").inner_text().strip()
        for n, page in enumerate(pages, start=1):
            page.screenshot(path=str(ARTIFACTS / f"traitor-phone-p{n}-end.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_one_person_plays_by_keyboard_against_three_random_agents(chromium, server_url):
    """Player 1 against three random agents, keyboard only (type and Enter to speak, Space and Enter to pick and
    confirm a Stop, Enter on the Magic Ring step), until the two-round game ends; axe-core finds no serious or
    critical violation on the talk, resolution and end boards."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                   bypass_csp=True)  # bypass_csp only to inject axe, as test_accessibility does
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list] = {}
    try:
        page.goto(server_url + "/")
        page.get_by_role("link", name="New Are You the Traitor? match").click()
        page.get_by_label("Seed").fill("5")
        page.get_by_label("Players").select_option("4")
        page.get_by_label("Round cap").fill("2")
        page.get_by_label("Turns of talk before the Key is handed over").fill("1")
        page.get_by_role("button", name="Start match").click()  # Players 2 to 4 default to the random agent
        page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        page.wait_for_selector('#board .traitor[data-my-turn="yes"], #result')
        moves, phases = 0, set()
        while page.locator("#result").count() == 0 and moves < 20:
            board = page.locator("#board .traitor")
            phase = board.get_attribute("data-phase")
            if phase not in phases:
                phases.add(phase)
                found.update({f"{phase}: {v['id']}": v["nodes"] for v in serious_violations(page)})
            version = page.locator("#board").get_attribute("data-version")
            if phase == "talk" and moves % 2 == 0:
                page.locator("#traitor-say-text").focus()
                page.keyboard.type(f"Message {moves}: I am on your side.")
                page.keyboard.press("Enter")
            elif phase in ("talk", "handoff") and page.locator("#board .traitor-stop").count():
                page.locator("#board .traitor-stop input[type=radio]").first.focus()
                page.keyboard.press("Space")
                page.keyboard.press("Enter")
            elif phase == "talk":
                page.locator('#board [data-action-id="pass"]').focus()
                page.keyboard.press("Enter")
            else:
                page.locator('#board [data-action-id="keep_ring"]').focus()
                page.keyboard.press("Enter")
            moves += 1
            page.wait_for_selector(f'#board:not([data-version="{version}"])')
            page.wait_for_selector('#board .traitor[data-my-turn="yes"], #result')
            assert no_horizontal_scroll(page)
        assert page.locator("#result").count() == 1, f"the game did not end in {moves} moves"
        assert "Game over" in page.locator("#board .traitor-final").inner_text()
        found.update({f"over: {v['id']}": v["nodes"] for v in serious_violations(page)})
        page.screenshot(path=str(ARTIFACTS / "traitor-phone-vs-agents-end.png"), full_page=True)
        assert not found, f"serious or critical axe violations: {found}"
    finally:
        context.close()
