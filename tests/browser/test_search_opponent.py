"""A person plays Santorini against the search agent in a real browser (issue 41): they choose "Search, level 3" by
its label in the new-match form and play by clicking on the board, the agent answering every turn, to the end."""

from __future__ import annotations

import re
import time

from tests.browser.conftest import ARTIFACTS
from tests.browser.santorini_player import (
    board_version,
    click_climbing,
    result_text,
    wait_for_board_change,
    wait_until_live,
    wait_until_playable,
)

# Playing to the end takes about 10-20 s here (the agent thinks at most 0.6 s a move). Should a game run long on a
# loaded machine, the person resigns once this much time has passed, after at least MIN_TURNS turns of their own.
PLAY_SECONDS = 30
MIN_TURNS = 4

# The cells holding the agent's workers (Player 2's, seat 1), in board order.
AGENT_WORKERS = "els => els.map(e => e.dataset.cell)"


def agent_cells(page) -> tuple[str, ...]:
    return tuple(page.locator("#board .santorini [data-cell]:has(.worker.seat1)").evaluate_all(AGENT_WORKERS))


def my_turn_starts(page) -> bool:
    """The page may act and nothing is selected yet in the move phase: a new turn of mine."""
    return (page.locator("#board .santorini.phase-move").count() > 0
            and page.locator("#board button.cell.selected").count() == 0
            and page.locator("#board button.cell.pick").count() > 0)


def choose_search_level_3(page, server_url: str) -> None:
    page.goto(server_url + "/")
    page.get_by_role("link", name="New Santorini match").click()
    seat = page.get_by_label("Player 2")
    option = seat.locator("option", has_text="Search, level 3")
    assert option.count() == 1, "one choice is labelled 'Search, level 3'"
    label = option.inner_text().strip()
    assert label.startswith("Agent: Search, level 3 — ")
    assert option.get_attribute("value") == "agent:search-3"  # the value stays the agent's name
    seat.select_option(label=label)
    page.get_by_label("Seed").fill("41")  # the same game each run (the agent's moves follow from the match's seed)
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    page.wait_for_selector("#board .santorini .cell")
    wait_until_live(page)


def test_person_plays_santorini_against_search_level_3_to_the_end(laptop_page, server_url):
    page = laptop_page
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    choose_search_level_3(page, server_url)
    assert page.locator("#status").inner_text().startswith("Your turn")

    turns, resigned = 0, False
    previous: tuple[str, ...] | None = None  # the agent's workers when my last turn began
    turn_version = None  # the board's version then (a click that selected nothing leaves the turn where it was)
    deadline = time.monotonic() + PLAY_SECONDS
    while result_text(page) is None:
        wait_until_playable(page)
        if result_text(page) is not None:
            break
        if my_turn_starts(page) and board_version(page) != turn_version:
            turn_version = board_version(page)
            # Every turn moves one worker to an empty square: the agent has answered my last turn.
            cells = agent_cells(page)
            assert len(cells) == 2, "the agent placed both its workers"
            assert cells != previous, f"the agent did not move after my turn {turns}"
            previous = cells
            turns += 1
            if turns > MIN_TURNS and time.monotonic() > deadline:
                page.get_by_text("Resign or leave…").click()
                page.get_by_role("button", name="Resign", exact=True).click()
                page.wait_for_selector("#result")
                resigned = True
                break
        before = page.locator("#board").inner_html()
        assert click_climbing(page), "my turn, but nothing on the board is clickable"
        wait_for_board_change(page, before)

    page.screenshot(path=str(ARTIFACTS / "search-opponent-end.png"), full_page=True)
    if resigned:
        assert result_text(page) == "You resigned. Player 2 won."
    else:
        # Who won, then why (SantoriniState.end_reason): a worker's climb onto level 3, or a player without a move.
        ending = (r"(Player [12]'s worker [ABab] moved up from level 2 onto level 3 on [A-E][1-5]|"
                  r"Player [12] had no legal move: both workers were blocked in)\.")
        assert re.fullmatch(rf"(You won!|You lost\. Player 2 won\.) {ending}", result_text(page)), result_text(page)
    assert turns >= 2, "at least two turns of mine were answered before the game ended"
    assert page.locator("#board .santorini button.cell").count() == 0  # nothing left to click
    assert errors == [], errors
