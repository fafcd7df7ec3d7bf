"""The new-match form, as a person fills it: one seat theirs, another an agent."""

from __future__ import annotations

import re


def start_against_agent(page, server_url: str, game: str, seat_label: str, agent: str, board: str) -> None:
    """Open "New <game> match", give the seat labelled ``seat_label`` to ``agent``, start, and wait for ``board``."""
    page.goto(server_url + "/")
    page.get_by_role("link", name=f"New {game} match").click()
    page.get_by_label(seat_label).select_option(f"agent:{agent}")
    page.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    page.wait_for_selector(board)
