"""Issue 37, point 5: a scripted session against a real server (daphne, its access log and the application's log at
INFO) with an invite, a next round and a study leaves no token in the server's log.

The session, as browsers would drive it (gameplay.studies.bots.client keeps each one's cookies and CSRF token): a
host starts a two-person Gnomes match with an invite link; a guest takes it; both open their seat's websocket, the
board picture and the observation; the host gives up the round and both go on to the next round (a POST each, which
hands each browser its new seat). A participant then comes to a study from a Prolific link, agrees, and opens the
first round and its socket. Afterwards every seat, invite and participant token and Prolific id the server's
database holds is looked for in the log (tests/support/log_check.py).
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from gameplay.studies.bots.client import BotClient
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.log_check import assert_no_token_in_log

pytestmark = pytest.mark.slow  # a server of its own, on a SQLite file: phase 1 only

SANTORINI_PRESET = ROOT / "fixtures/studies/santorini_agents.json"
SANTORINI_LLM = ROOT / "fixtures/studies/santorini_llm_agent.json"


def manage(env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def ok(page, what: str):
    assert page.status == 200, f"{what}: {page.status} {page.path} {page.text[:300]}"
    return page


def seat_token(page) -> str:
    return re.search(r"/play/([\w-]+)/$", page.path).group(1)


def open_socket(browser: BotClient, base_url: str, token: str) -> None:
    """Open the seat's websocket as its page does (the seat's cookie, the site's Origin) and read the first frame."""

    async def go():
        ws_url = base_url.replace("http://", "ws://") + f"/ws/play/{token}/"
        headers = {"Cookie": browser.cookie_header()}
        async with connect(ws_url, origin=Origin(browser.origin), additional_headers=headers) as ws:
            assert 'id="board"' in await asyncio.wait_for(ws.recv(), timeout=30)

    asyncio.run(go())


def visit_seat(browser: BotClient, base_url: str, token: str) -> None:
    open_socket(browser, base_url, token)
    # Gnomes declares no picture (404): the request, with the token in its path, is logged all the same.
    assert browser.get(f"/play/{token}/board.png").status in (200, 404)
    assert browser.get_json(f"/play/{token}/observation.json")["seat"] in (0, 1)


def test_a_session_with_an_invite_a_next_round_and_a_study_leaves_no_token_in_the_log(tmp_path):
    db, log = tmp_path / "db.sqlite3", tmp_path / "daphne.log"
    env = server_env(f"sqlite:///{db}", LOG_LEVEL="INFO")
    migrate(env)
    manage(env, "loaddata", str(SANTORINI_LLM))
    manage(env, "load_study", str(SANTORINI_PRESET), "--open")
    manage(env, "shell", "-c", "from gameplay.studies.models import Study; Study.objects.update(assignment='url')")
    with daphne_server(env, log_path=log) as url:
        host, guest = BotClient(url), BotClient(url)
        # A match with an invite link; the guest takes the seat.
        form_page = ok(host.get("/games/gnomes/new/"), "new match form")
        form = form_page.form_posting_to("/games/gnomes/new/")
        host_page = ok(host.submit(form_page, form, "Start match", {"seat_1": "invite"}), "start match")
        host_token = seat_token(host_page)
        invite = re.search(r'value="(http://[^"]+/invite/[\w-]+/)"', host_page.html).group(1)
        invite_page = ok(guest.get(invite), "invite page")
        guest_page = ok(guest.submit(invite_page, invite_page.form_posting_to("/"), "Join as"), "join")
        guest_token = seat_token(guest_page)
        for browser, token in ((host, host_token), (guest, guest_token)):
            visit_seat(browser, url, token)

        # The host gives up the round; each goes on to the next round with a POST, which hands over the new seat.
        ok(host.post(f"/play/{host_token}/resign/", []), "resign")
        next_tokens = []
        for browser, token in ((host, host_token), (guest, guest_token)):
            page = ok(browser.post(f"/play/{token}/next-round/", []), "next round")
            next_tokens.append(seat_token(page))
            assert next_tokens[-1] != token
            visit_seat(browser, url, next_tokens[-1])

        # A participant from a Prolific link: consent, instructions, the first round and its socket.
        participant = BotClient(url)
        consent = ok(participant.get("/s/santorini-agents/?PROLIFIC_PID=logcheck5f0c1a2b3c4d&STUDY_ID=s1"
                                     "&SESSION_ID=x1&condition=random"), "study link")
        instructions = ok(participant.submit(consent, consent.form_posting_to("/consent/"), "I agree"), "consent")
        form = instructions.post_forms()[0]
        round_page = ok(participant.submit(instructions, form, form.buttons[0].label), "instructions")
        assert "/round/1/" in round_page.path, round_page.path
        ws_path = round_page.attributes["ws-connect"][0]
        open_socket(participant, url, ws_path.rstrip("/").rsplit("/", 1)[1])
        ok(participant.get(round_page.path), "round page again")

    redacted = assert_no_token_in_log(log, db, min_redacted=10)
    print(f"{redacted} redacted lines in the server log, no token")
