"""Two Rooms and a Boom in the browser: six people, each in their own phone-sized browser on one match's invite
links, play a seeded game to the end through the board only. Seed 0 with six seats puts Players 2, 5 and 6 in
Room A and Players 1, 3 and 4 in Room B, and the talk order opens with Player 2, 1, 5, 3, 6, 4.

Round 1: a say line in each room, Player 5 offers Player 2 a card share and Player 2 accepts it (Player 6, the
third person in Room A, sees only that a share happened), Player 6 whispers to Player 5, Leaders are appointed,
everybody else ends their talk with Done; each Leader picks a hostage, the Leaders parley, and the exchange is shown
to all six. Rounds 2 and 3 are Done, hostages and a silent parley; the end reveals every card and the winner.
Before the end, no page holds another seat's card: the expected card sentences (the engine's secrets(): "Player 4
holds the President card", "Player 4 is on the Blue team") are built from each person's own card panel."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import ARTIFACTS
from .new_match import phone, wait_version

SEED = 0
NAMES = [f"Player {n}" for n in range(1, 7)]
ROOM_A, ROOM_B = (1, 4, 5), (0, 2, 3)  # seat indexes (seed 0)
UNIQUE = ("President", "Bomber")
AXE = (Path(__file__).resolve().parents[1] / "support" / "vendor" / "axe.min.js").read_text(encoding="utf-8")
RUN_AXE = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))"""


def phone_for_axe(chromium):
    """A phone like new_match.phone() whose page may have axe-core injected (it bypasses the page's CSP)."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                   has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def axe_violations(page) -> list[str]:
    page.add_script_tag(content=AXE)
    return page.evaluate(RUN_AXE)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def whose_turn(pages) -> int:
    mine = [i for i, page in enumerate(pages) if page.locator("#board .tr-turn.mine").count()]
    assert len(mine) == 1, mine
    return mine[0]


def act(pages, version: int, expected_seat: int | None = None) -> tuple:
    """The page whose turn it is (checked against ``expected_seat``) and the version its action will lead to."""
    turn = whose_turn(pages)
    if expected_seat is not None:
        assert turn == expected_seat, f"{NAMES[turn]} acts, expected {NAMES[expected_seat]}"
    return pages[turn], version + 1


def facts(seat: int, cards: list[tuple[str, str]]) -> tuple[str, str]:
    card, team = cards[seat]
    return f"{NAMES[seat]} holds the {card} card", f"{NAMES[seat]} is on the {team} team"


# The page without the help panel's rules text, which names every role to everyone (the same words on every page).
WITHOUT_RULES = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelectorAll('details.help-panel').forEach((panel) => panel.remove());
  return copy.outerHTML;
}"""


def assert_no_foreign_cards(pages, cards, allowed=frozenset()) -> None:
    """No page shows another seat's card or colour, except the pairs (viewer, shown) in ``allowed``; the unique
    cards' names appear only on their holders' pages (and an allowed partner's)."""
    for viewer, page in enumerate(pages):
        html = page.evaluate(WITHOUT_RULES)
        for shown in range(len(pages)):
            if shown == viewer or (viewer, shown) in allowed:
                continue
            card_fact, colour_fact = facts(shown, cards)
            assert card_fact not in html, f"{NAMES[viewer]}'s page shows: {card_fact}"
            assert colour_fact not in html, f"{NAMES[viewer]}'s page shows: {colour_fact}"
            if cards[shown][0] in UNIQUE:
                assert cards[shown][0] not in html, f"{NAMES[viewer]}'s page names the {cards[shown][0]}"


def send_text(page, form: str, text: str, option: str | None = None) -> None:
    box = page.locator(f"#board form.{form}")
    if option is not None:
        box.locator("select").select_option(label=option)
    box.locator("textarea").fill(text)
    box.get_by_role("button").click()


def test_six_people_play_two_rooms_and_a_boom_to_the_end(chromium, server_url):
    # Player 2's phone also runs axe-core on the board with every talk control, and at the end.
    contexts, pages = zip(*(phone_for_axe(chromium) if n == 1 else phone(chromium) for n in range(6)), strict=True)
    host = pages[0]
    try:
        host.goto(server_url + "/")
        host.get_by_role("link", name="New Two Rooms and a Boom match").click()
        host.get_by_label("Seed").fill(str(SEED))
        host.get_by_label("Players").select_option("6")
        for name in NAMES[1:]:
            host.get_by_label(name, exact=True).select_option("invite")
        host.get_by_role("button", name="Start match").click()
        host.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for guest, name in zip(pages[1:], NAMES[1:], strict=True):
            guest.goto(host.get_by_label(f"Invite link for {name}").input_value())
            guest.get_by_role("button", name=f"Join as {name}").click()
            guest.wait_for_url(re.compile(r"/play/[\w-]+/$"))
        for page in pages:
            page.wait_for_selector('#board .tworooms .tr-turn[data-my-turn]')
        version = int(host.locator("#board").get_attribute("data-version"))
        wait_version(pages, version)

        # Each person reads their own card from their own card panel (name and team, in words and colour).
        cards = []
        for page in pages:
            panel = page.locator("#board .tr-card")
            card = panel.locator(".tr-card-name").inner_text().strip()
            team = panel.locator(".tr-card-team").inner_text().strip().split()[0].capitalize()
            assert f"team-{team.lower()}" in panel.get_attribute("class")
            cards.append((card, team))
        assert sorted(c for c, _ in cards) == sorted(["President", "Bomber", "Blue Team", "Blue Team", "Red Team",
                                                      "Red Team"])
        # The rooms and their members are public: everybody sees the same split.
        for page in pages:
            rooms = page.locator("#board .tr-rooms").first
            assert [int(s) for s in rooms.locator('[data-room="Room A"] li').evaluate_all(
                "els => els.map(e => e.dataset.seat)")] == list(ROOM_A)
            assert "You have 3 talk actions left this round" in page.locator("#board .tr-head").inner_text()
            assert no_horizontal_scroll(page)
        assert_no_foreign_cards(pages, cards)
        for i in (0, 1):
            pages[i].screenshot(path=str(ARTIFACTS / f"two-rooms-phone-p{i + 1}-start.png"), full_page=True)

        # Round 1. Player 2 (Room A) and Player 1 (Room B) each say something to their room.
        page, version = act(pages, version, 1)
        assert axe_violations(page) == []
        send_text(page, "tr-say", "Hello Room A, I am on Blue.")
        wait_version(pages, version)
        page, version = act(pages, version, 0)
        send_text(page, "tr-say", "Room B here: who wants to lead us?")
        wait_version(pages, version)
        for seat, page in enumerate(pages):
            log = page.locator("#board .tr-log").inner_text()
            assert ("Hello Room A, I am on Blue." in log) == (seat in ROOM_A)
            assert ("who wants to lead us?" in log) == (seat in ROOM_B)

        # Player 5 offers Player 2 a card share; only Player 2 is told.
        page, version = act(pages, version, 4)
        page.locator("#board form.tr-offer select").select_option(label="Card share with Player 2")
        page.get_by_role("button", name="Offer the share").click()
        wait_version(pages, version)
        assert "Player 5 offered you a card share." in pages[1].locator("#board .tr-log").inner_text()
        assert "offered" not in pages[5].locator("#board .tr-log").inner_text()

        # Player 3 appoints Player 1 Leader of Room B: public news.
        page, version = act(pages, version, 2)
        page.get_by_role("button", name="Appoint Player 1 Leader of Room B").click()
        wait_version(pages, version)
        for page in pages:
            assert page.locator('#board .tr-room[data-room="Room B"]').get_attribute("data-leader") == "Player 1"

        # Player 6 whispers to Player 5; Player 4 ends their talk for the round.
        page, version = act(pages, version, 5)
        send_text(page, "tr-whisper", "Psst, trust me on this one.", option="Player 5")
        wait_version(pages, version)
        page, version = act(pages, version, 3)
        page.get_by_role("button", name="Done talking for this round").click()
        wait_version(pages, version)
        for seat, page in enumerate(pages):
            assert ("trust me on this one" in page.content()) == (seat in (4, 5))

        # Player 2 accepts: Players 2 and 5 see each other's whole card; Player 6, in the same room, does not.
        page, version = act(pages, version, 1)
        page.get_by_role("button", name="Accept Player 5's card share").click()
        wait_version(pages, version)
        p2_fact, p5_fact = facts(1, cards)[0], facts(4, cards)[0]
        assert p5_fact in pages[1].locator("#board .tr-private").inner_text()
        assert f"You and Player 5 showed each other your cards: {p5_fact}." in pages[1].content()
        assert p2_fact in pages[4].locator("#board .tr-private").inner_text()
        third = pages[5].content()
        assert "Player 5 and Player 2 privately showed each other their cards." in third
        assert p2_fact not in third and p5_fact not in third
        for seat in ROOM_B:
            assert "showed each other" not in pages[seat].content()
        assert_no_foreign_cards(pages, cards, allowed={(1, 4), (4, 1)})
        pages[5].screenshot(path=str(ARTIFACTS / "two-rooms-phone-p6-third-person.png"), full_page=True)
        pages[1].screenshot(path=str(ARTIFACTS / "two-rooms-phone-p2-after-share.png"), full_page=True)

        # Player 1 is done; Player 5 appoints Player 2 Leader of Room A; everybody else is done.
        page, version = act(pages, version, 0)
        page.get_by_role("button", name="Done talking for this round").click()
        wait_version(pages, version)
        page, version = act(pages, version, 4)
        page.get_by_role("button", name="Appoint Player 2 Leader of Room A").click()
        wait_version(pages, version)
        while pages[0].locator('#board .tworooms[data-phase="talk"]').count():
            page, version = act(pages, version)
            page.get_by_role("button", name="Done talking for this round").click()
            wait_version(pages, version)

        # Hostages: Room A's Leader (Player 2) sends Player 6, Room B's (Player 1) sends Player 4.
        page, version = act(pages, version, 1)
        assert page.locator("#board form.tr-hostages input[type=radio]").count() == 2  # never the Leader
        page.screenshot(path=str(ARTIFACTS / "two-rooms-phone-p2-leader-hostages.png"), full_page=True)
        page.get_by_label("Send Player 6 to the other room as a hostage").check()
        page.get_by_role("button", name="Send the hostage").click()
        wait_version(pages, version)
        assert "You chose Player 6 as a hostage to send from Room A." in pages[1].content()
        for seat in (4, 5):
            assert "Player 2, our Leader, chose Player 6 as a hostage." in pages[seat].content()
        for seat in ROOM_B:
            assert "chose Player 6" not in pages[seat].content()
        page, version = act(pages, version, 0)
        page.get_by_label("Send Player 4 to the other room as a hostage").check()
        page.get_by_role("button", name="Send the hostage").click()
        wait_version(pages, version)

        # The parley: Player 2 speaks, Player 1 says nothing; only the two Leaders read it.
        page, version = act(pages, version, 1)
        send_text(page, "tr-parley", "We send you a quiet one.")
        wait_version(pages, version)
        page, version = act(pages, version, 0)
        page.get_by_role("button", name="Say nothing in the parley").click()
        wait_version(pages, version)
        exchange = ("Hostage exchange after round 1: Player 6 went from Room A to Room B; Player 4 went from Room B to "
                    "Room A.")
        for seat, page in enumerate(pages):
            assert exchange in page.locator("#board .tr-log").inner_text()
            assert ("We send you a quiet one." in page.content()) == (seat in (0, 1))
            room_a = page.locator('#board .tr-room[data-room="Room A"]')
            assert "Player 4" in room_a.inner_text() and "Player 6" not in room_a.inner_text()
            assert "Round 2 of 3" in page.locator("#board .tr-head").inner_text()
            assert no_horizontal_scroll(page)
        assert_no_foreign_cards(pages, cards, allowed={(1, 4), (4, 1)})
        pages[3].screenshot(path=str(ARTIFACTS / "two-rooms-phone-p4-after-exchange.png"), full_page=True)

        # Rounds 2 and 3: everybody is done at once, each Leader sends the first choice, silent parleys.
        for _ in (2, 3):
            while pages[0].locator('#board .tworooms[data-phase="talk"]').count():
                page, version = act(pages, version)
                page.get_by_role("button", name="Done talking for this round").click()
                wait_version(pages, version)
            for _leader in (0, 1):
                page, version = act(pages, version)
                page.locator("#board form.tr-hostages input[type=radio]").first.check()
                page.get_by_role("button", name="Send the hostage").click()
                wait_version(pages, version)
            for _leader in (0, 1):
                page, version = act(pages, version)
                page.get_by_role("button", name="Say nothing in the parley").click()
                wait_version(pages, version)
            if _ == 2:
                assert_no_foreign_cards(pages, cards, allowed={(1, 4), (4, 1)})

        # The end: every page reveals every card by room, the same winner and the result.
        winners = set()
        for page in pages:
            page.wait_for_selector("#result")
            reveal = page.locator("#board .tr-reveal")
            for seat, (card, team) in enumerate(cards):
                mini = reveal.locator(f'.tr-mini[data-seat="{seat}"]')
                assert mini.locator(".cd").inner_text() == card
                assert team in mini.locator(".tm").inner_text()
            winners.add(page.locator("#board .tr-winner").get_attribute("data-winner"))
            assert page.locator("#board .tr-result").inner_text().startswith(("Red wins", "Blue wins"))
            assert "Hostage exchange after round 3" in page.locator("#board .tr-log").inner_text()
            assert no_horizontal_scroll(page)
        assert len(winners) == 1
        assert axe_violations(pages[1]) == []
        for i, page in enumerate(pages):
            if i in (0, 5):
                page.screenshot(path=str(ARTIFACTS / f"two-rooms-phone-p{i + 1}-end.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
