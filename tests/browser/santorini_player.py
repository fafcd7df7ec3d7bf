"""Plays Santorini through the page, the way a person does: clicks on highlighted squares."""

from __future__ import annotations


def board_version(page) -> str:
    return page.locator("#board").get_attribute("data-version")


def click_something(page) -> bool:
    """Click one square if this page may act: a target square first, else a worker to select.

    Returns False when the page has nothing to click (not its turn).
    """
    targets = page.locator("#board button.cell.target")
    if targets.count():
        targets.first.click()
        return True
    picks = page.locator("#board button.cell.pick:not(.selected)")
    if picks.count():
        picks.first.click()
        return True
    return False


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
