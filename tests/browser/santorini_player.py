"""Starts a Santorini match from the new-match form and plays it through the page, the way a person does: clicks on
highlighted squares."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.new_match import start_new_match


def board_version(page) -> str:
    return page.locator("#board").get_attribute("data-version")


def click_something(page, timeout: int = 5_000) -> bool:
    """Click one square if this page may act: a target square first, else a worker to select.

    Returns False when the page has nothing to click (not its turn), or when the square it found was redrawn away
    before the click landed (a frame from the other seat, or the round's end, replaced the board): the caller looks
    again. Under load the board can be replaced several times while a click waits for the square to be stable.
    """
    for selector in ("#board button.cell.target", "#board button.cell.pick:not(.selected)"):
        squares = page.locator(selector)
        if squares.count():
            try:
                squares.first.click(timeout=timeout)
            except PlaywrightTimeoutError:
                return False
            return True
    return False


# The building level of every highlighted square, from its class (lvl0 .. lvl3; a dome is never highlighted).
TARGET_LEVELS = "cells => cells.map(c => Number((c.className.match(/\\blvl(\\d)/) || [0, 0])[1]))"


def click_climbing(page, timeout: int = 5_000) -> bool:
    """Click one square as a player racing upwards would: a move to the highest square highlighted, a build on the
    highest one short of a dome (the first in the board's order among equals), else a worker to select. Two such
    players end a game in a dozen turns, where clicking the first square takes about fifty. Returns as
    ``click_something`` does."""
    targets = page.locator("#board button.cell.target")
    levels = targets.evaluate_all(TARGET_LEVELS)
    if not levels:
        return click_something(page, timeout)
    building = page.locator("#board .santorini.phase-build").count() > 0
    best = max(range(len(levels)), key=lambda i: (-1 if building and levels[i] == 3 else levels[i], -i))
    try:
        targets.nth(best).click(timeout=timeout)
    except PlaywrightTimeoutError:
        return False
    return True


def wait_until_live(page, timeout: int = 30_000) -> None:
    """Wait until the match socket's first frame has drawn the page (static/js/live.js marks it): a click before
    then can land on a cell that frame replaces."""
    page.wait_for_selector("[ws-connect][data-socket=live]", timeout=timeout)


def wait_for_board_change(page, before_html: str, timeout: int = 30_000) -> None:
    page.wait_for_function(
        "html => document.querySelector('#board').innerHTML !== html", arg=before_html, timeout=timeout
    )


def wait_until_playable(page, timeout: int = 30_000) -> None:
    """Wait until the page may click (its turn) or the match is over. A person's move shows at once; an agent's
    answer arrives a moment later on the socket (agent turns never run on the consumer's thread, issue 14)."""
    page.wait_for_selector(
        "#board button.cell.target, #board button.cell.pick:not(.selected), #result", timeout=timeout
    )


def result_text(page) -> str | None:
    result = page.locator("#result")
    return result.inner_text() if result.count() else None


def start_match(page, server_url: str, seat_1: str) -> None:
    start_new_match(page, server_url, "Santorini", {"Player 2": seat_1}, "#board .santorini .cell")
    wait_until_live(page)  # the websocket delivered a live board
