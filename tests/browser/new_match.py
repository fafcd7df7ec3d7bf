"""The new-match form, as a person fills it (one seat theirs, another an agent), and phone-sized people."""

from __future__ import annotations

import re


def start_new_match(page, server_url: str, game: str, seats: dict[str, str], board: str | None = None,
                    choices: dict[str, str | bool] | None = None) -> None:
    """Open "New <game> match", set each option in ``choices`` (its label -> the value: a select's option, a text or
    number field's text, True or False for a checkbox), give each seat in ``seats`` (its label -> "agent:<name>" or
    "invite"), start, and wait for the match's page (and its ``board``, when given: a page whose seats wait for
    invited people may not draw one yet). Labels are matched whole, so "Player 2" is not "Player 20"."""
    page.goto(server_url + "/")
    page.get_by_role("link", name=f"New {game} match").click()
    for label, value in {**(choices or {}), **seats}.items():
        set_field(page.get_by_label(label, exact=True), value)
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    if board:
        page.wait_for_selector(board)


def set_field(field, value: str | bool) -> None:
    """Set a form field as a person would: pick a select's option, tick or clear a checkbox, type into the rest."""
    kind = field.evaluate("f => f.tagName === 'SELECT' ? 'select' : (f.type || '').toLowerCase()")
    if kind == "select":
        field.select_option(str(value))
    elif kind == "checkbox":
        field.set_checked(bool(value))
    else:
        field.fill(str(value))


def start_against_agent(page, server_url: str, game: str, seat_label: str, agent: str, board: str,
                        choices: dict[str, str] | None = None) -> None:
    """``start_new_match`` with the seat labelled ``seat_label`` given to ``agent``."""
    start_new_match(page, server_url, game, {seat_label: f"agent:{agent}"}, board, choices)


def phone(chromium):
    """A phone-sized browser context of its own (one person) and its page."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                   has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def wait_version(pages, version: int) -> None:
    """Wait until every page's board shows the match at ``version``."""
    for page in pages:
        page.wait_for_selector(f'#board[data-version="{version}"]')
