"""Codenames in the browser: four people, each in their own phone-sized browser on one match's links (Player 1 the
Red Spymaster, Player 2 the Blue Spymaster, Players 3 and 4 the Red and Blue Operatives), play a whole game
through the page. Seed 42 has Red start. Red's Spymaster first tries a word on the grid (refused, nothing changes),
then clues ZEPHYR for 2; Red's Operative touches two Red agents and ends the turn; Blue's Spymaster clues QUARTZ
for unlimited and Blue's Operative touches every Blue agent, so Blue wins. The Operatives pick their cards from the
key as the Spymasters' pages show it (the test reads it there, never from the database), and at every step of
play the Operatives' pages hold nothing of the key; at the end every page shows the whole key. Each team's chat
reaches its own team's pages only (the Spymasters read it but cannot write)."""

from __future__ import annotations

import re

from .conftest import ARTIFACTS
from .journey_support import serious_violations
from .new_match import phone, start_new_match, wait_version

SEED = 42


def phone_for_axe(chromium):
    """A phone like new_match.phone whose context lets the test inject axe-core (the page's Content-Security-Policy
    allows the site's own scripts only; nothing else about the page changes)."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                   has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


# Each page's cards are read in one round trip to the browser (one evaluate over all 25), not four calls a card:
# with four phones on two cores, per-card calls made the checks most of this journey's time.
CARDS_JS = """cards => cards.map(c => ({
    cell: c.dataset.cell,
    key: c.dataset.key === undefined ? null : c.dataset.key,
    identity: c.dataset.identity === undefined ? null : c.dataset.identity,
    classes: c.className,
    word: (c.querySelector('.word') || {innerText: null}).innerText,
    labels: c.querySelectorAll('.label').length,
}))"""


def cards_of(page) -> list[dict]:
    return page.locator("#board .cn-card").evaluate_all(CARDS_JS)


def key_of(spymaster) -> dict[str, str]:
    """The key of the unrevealed cards as a Spymaster's page shows it: cell -> identity."""
    return {c["cell"]: c["key"] for c in cards_of(spymaster) if c["key"] is not None}


def words_of(page) -> dict[str, str]:
    return {c["cell"]: c["word"] for c in cards_of(page)}


def assert_no_key(operative, key: dict[str, str], words: dict[str, str]) -> None:
    """Nothing of the key of an unrevealed card is in an Operative's page: no key marks, no "WORD=identity" piece,
    no identity class or label on the card, and the same cards are unrevealed there."""
    html = operative.content()
    assert "data-key" not in html and "key-" not in operative.locator("#board").inner_html()
    cards = {c["cell"]: c for c in cards_of(operative)}
    for cell, identity in key.items():
        assert f"{words[cell]}={identity}" not in html
        card = cards[cell]
        assert "revealed" not in card["classes"]
        assert card["identity"] is None
        assert card["labels"] == 0  # no identity named on it
        assert card["word"] == words[cell]


def give_clue(spymaster, word: str, number: str) -> None:
    spymaster.get_by_label("Clue word").fill(word)
    spymaster.get_by_label("Number").select_option(number)
    spymaster.get_by_role("button", name="Give clue").click()


def test_four_people_play_codenames_to_a_win(chromium, server_url):
    # The Red seats' browsers may run axe-core: the Spymaster's page with the key, the Operative's with card buttons.
    contexts, pages = zip(phone_for_axe(chromium), phone(chromium), phone_for_axe(chromium), phone(chromium),
                          strict=True)
    red_spy, blue_spy, red_op, blue_op = pages
    operatives = (red_op, blue_op)
    try:
        start_new_match(red_spy, server_url, "Codenames", {f"Player {n}": "invite" for n in (2, 3, 4)},
                        choices={"Seed": str(SEED)})
        for guest, n in ((blue_spy, 2), (red_op, 3), (blue_op, 4)):
            guest.goto(red_spy.get_by_label(re.compile(rf"^Invite link for Player {n}\b")).input_value())
            guest.get_by_role("button", name=re.compile(rf"^Join as Player {n}\b")).click()
            guest.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for page in pages:
            page.wait_for_selector("#board .codenames")
            page.wait_for_selector("[ws-connect][data-socket=live]")
        red_spy.wait_for_selector("#cn-clue-word")
        version = int(red_spy.locator("#board").get_attribute("data-version"))

        # Roles and teams; Red starts with 9 agents to Blue's 8.
        for page, who in zip(pages, ("Red Spymaster", "Blue Spymaster", "Red Operative", "Blue Operative"),
                             strict=True):
            head = page.locator("#board .cn-head").inner_text()
            assert f"You: {who}" in head and "Red started" in head and "Red 9" in head and "Blue 8" in head
            assert page.locator("#board .cn-grid > li").count() == 25
            assert no_horizontal_scroll(page)

        # The Spymasters see the key (the same key), with names, not colours alone; the Operatives see none of it.
        key, words = key_of(red_spy), words_of(red_spy)
        assert len(key) == 25 and key == key_of(blue_spy)
        assert sorted(key.values()).count("red") == 9 and list(key.values()).count("blue") == 8
        assert list(key.values()).count("bystander") == 7 and list(key.values()).count("assassin") == 1
        assassin = next(c for c, k in key.items() if k == "assassin")
        assert red_spy.locator(f'#board .cn-card[data-cell="{assassin}"] .label').inner_text() == "Assassin"
        for operative in operatives:
            assert words_of(operative) == words
            assert_no_key(operative, key, words)
        # Only the Spymaster whose turn it is has the clue form; nobody can touch a card yet.
        assert blue_spy.locator("#cn-clue-word").count() == 0
        assert all(p.locator("#board button.cn-card").count() == 0 for p in pages)
        assert serious_violations(red_spy) == []
        red_spy.screenshot(path=str(ARTIFACTS / "codenames-phone-red-spymaster-start.png"), full_page=True)
        red_op.screenshot(path=str(ARTIFACTS / "codenames-phone-red-operative-start.png"), full_page=True)

        # Team chat: a Red Operative's line reaches Red's pages only; a Spymaster reads it but has no box to write.
        red_op.get_by_label("Message").fill("Red team only: I trust the clue")
        red_op.get_by_label("Message").press("Enter")
        for page in (red_op, red_spy):
            page.wait_for_selector("#chat-log li:has-text('Red team only: I trust the clue')")
        assert all(spy.locator("#chat-text:enabled").count() == 0 for spy in (red_spy, blue_spy))
        blue_op.get_by_label("Message").fill("Blue here")
        blue_op.get_by_label("Message").press("Enter")
        blue_spy.wait_for_selector("#chat-log li:has-text('Blue here')")
        for page in (blue_spy, blue_op):
            assert "Red team only" not in page.content()
        for page in (red_spy, red_op):
            assert "Blue here" not in page.content()
        assert "Team chat" in red_op.content()

        # A word on the grid is no clue: a clear error, and nothing changes.
        on_grid = words["0"]
        give_clue(red_spy, on_grid.lower(), "2")
        red_spy.wait_for_selector("#flash.error:not(:empty)")
        error = red_spy.locator("#flash").inner_text()
        assert "invalid clue" in error and on_grid in error and "Nothing was changed" in error, error
        red_spy.screenshot(path=str(ARTIFACTS / "codenames-phone-invalid-clue.png"), full_page=True)
        assert int(red_spy.locator("#board").get_attribute("data-version")) == version
        for page in pages:
            assert page.locator("#board .codenames").get_attribute("data-phase") == "clue"
            assert page.locator("#board .cn-clue-now").count() == 0
        assert red_spy.locator("#cn-clue-word").count() == 1

        # Red: ZEPHYR for 2. Red's Operative sees the clue and touches two Red agents, then ends the turn.
        give_clue(red_spy, "zephyr", "2")
        version += 1
        wait_version(pages, version)
        for page in pages:
            assert "ZEPHYR, 2" in page.locator("#board .cn-clue-now").inner_text()
        assert "3 guesses left" in red_op.locator("#board .cn-turn").inner_text()
        assert blue_op.locator("#board button.cn-card").count() == 0  # not Blue's turn
        assert red_op.locator("#board button.cn-card").count() == 25
        assert red_op.get_by_role("button", name="End turn").count() == 0  # not before a first guess
        assert serious_violations(red_op) == []
        red_op.screenshot(path=str(ARTIFACTS / "codenames-phone-red-operative-guessing.png"), full_page=True)
        for n, cell in enumerate([c for c, k in key.items() if k == "red"][:2]):
            card = red_op.get_by_role("button", name=f"Guess {words[cell]}", exact=True)
            if n == 0:
                card.click()
            else:  # a card is a real button: the keyboard works too
                card.focus()
                red_op.keyboard.press("Enter")
            version += 1
            wait_version(pages, version)
            for page in pages:
                card = page.locator(f'#board .cn-card[data-cell="{cell}"]')
                assert "revealed" in card.get_attribute("class")
                assert card.locator(".label").inner_text() == "Red agent"  # the identity in words, for everyone
            del key[cell]
            assert key_of(red_spy) == key == key_of(blue_spy)
            for operative in operatives:
                assert_no_key(operative, key, words)
        assert "Red 7" in blue_op.locator("#board .cn-head").inner_text()
        red_op.get_by_role("button", name="End turn").click()
        version += 1
        wait_version(pages, version)

        # Blue: QUARTZ, unlimited. Blue's Operative touches every Blue agent; the last one wins the game.
        assert blue_spy.locator("#board .cn-turn.mine").count() == 1
        assert red_spy.locator("#cn-clue-word").count() == 0
        blue_spy.get_by_label("Number").select_option("unlimited")
        blue_spy.get_by_label("Clue word").fill("quartz")
        blue_spy.get_by_label("Clue word").press("Enter")  # Enter in the word field gives the clue
        version += 1
        wait_version(pages, version)
        assert "QUARTZ, unlimited" in blue_op.locator("#board .cn-clue-now").inner_text()
        assert "no limit on guesses" in blue_op.locator("#board .cn-turn").inner_text()
        assert red_op.locator("#board button.cn-card").count() == 0
        blue_cells = [c for c, k in key.items() if k == "blue"]
        for n, cell in enumerate(blue_cells):
            blue_op.get_by_role("button", name=f"Guess {words[cell]}", exact=True).click()
            version += 1
            wait_version(pages, version)
            del key[cell]
            if n == 3:
                for operative in operatives:
                    assert_no_key(operative, key, words)
                    assert no_horizontal_scroll(operative)
                blue_spy.screenshot(path=str(ARTIFACTS / "codenames-phone-blue-spymaster-mid.png"), full_page=True)
                blue_op.screenshot(path=str(ARTIFACTS / "codenames-phone-blue-operative-mid.png"), full_page=True)

        # The result, for all four; nobody can act any more.
        for page in pages:
            page.wait_for_selector("#result")
            won = page in (blue_spy, blue_op)
            assert page.locator("#result").inner_text().startswith("You won" if won else "You lost")
            assert "All Blue agents are revealed: Blue wins." in page.locator("#board #cn-result").inner_text()
            assert "Blue 0" in page.locator("#board .cn-head").inner_text()
            assert page.locator("#board button.cn-card").count() == 0
            assert page.locator("#cn-clue-word").count() == 0
            assert no_horizontal_scroll(page)
        for operative in operatives:  # the end shows the whole key to everyone, the cards nobody touched included
            assert key_of(operative) == key
        assert key_of(red_spy) == key
        for page, name in zip(pages, ("red-spymaster", "blue-spymaster", "red-operative", "blue-operative"),
                              strict=True):
            page.screenshot(path=str(ARTIFACTS / f"codenames-phone-{name}-end.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
