"""Shared helpers of the tests against running servers (test_two_daphne.py, test_live_cluster.py): a browser of its own
that has opened a game's new-match form, the cookie it sends on a seat's websocket handshake, and a seat's websocket
URL."""

from __future__ import annotations

import re
import urllib.request
from http.cookiejar import CookieJar


def open_new_match_form(base: str, game: str, timeout: float):
    """A browser of its own (cookie jar and opener) that has opened the game's new-match form: (jar, opener, the
    form's URL, its CSRF token)."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form_url = f"{base}/games/{game}/new/"
    with opener.open(form_url, timeout=timeout) as response:
        page = response.read().decode()
    return jar, opener, form_url, re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def socket_cookie(jar: CookieJar, token: str) -> dict[str, str]:
    """The Cookie header a browser sends on the seat's websocket handshake (the cookie scoped to its path)."""
    held = [f"{c.name}={c.value}" for c in jar if c.path == f"/ws/play/{token}/"]
    assert len(held) == 1, f"expected one websocket cookie for the seat, got {len(held)}"
    return {"Cookie": held[0]}


def ws_url(base: str, token: str) -> str:
    return base.replace("http://", "ws://", 1) + f"/ws/play/{token}/"
