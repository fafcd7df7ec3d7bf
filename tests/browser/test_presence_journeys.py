"""Presence in real browsers (issue 16.1), with the real timings (PRESENCE_* settings at their defaults):

- a match page shows the partner connected, then gone within 15 s of the partner closing their page;
- in a study round with two participants, the one who stays gets the study's rule within 30 s of the other
  closing theirs: the round ends (and Continue appears), or the fallback agent takes over and the round goes on.

Times are measured from the moment the partner's page closed and printed, so a slow run shows its margin.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.journey_support import manage
from tests.browser.santorini_player import click_something, start_match, wait_for_board_change, wait_until_live
from tests.support.live_server import daphne_server, migrate, server_env

ROOT = Path(__file__).resolve().parents[2]
SANTORINI_PRESET = ROOT / "fixtures" / "studies" / "santorini_agents.json"


@pytest.fixture(scope="module")
def presence_server(tmp_path_factory):
    """Two copies of the Santorini preset, one ending a round whose partner left and one handing their seat to
    the fallback agent (random), in piloting mode (?condition=human pairs two people)."""
    tmp = tmp_path_factory.mktemp("presence-db")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}")
    migrate(env)
    preset = json.loads(SANTORINI_PRESET.read_text(encoding="utf-8"))
    for slug, action in (("left-end", "end"), ("left-agent", "agent")):
        conditions = [c for c in preset["conditions"] if c["key"] == "human"]
        copy = {**preset, "slug": slug, "partner_left_action": action, "assignment": "url", "conditions": conditions}
        (tmp / f"{slug}.json").write_text(json.dumps(copy), encoding="utf-8")
        manage(env, "load_study", str(tmp / f"{slug}.json"), "--open")
    ARTIFACTS.mkdir(exist_ok=True)
    with daphne_server(env, log_path=ARTIFACTS / "presence-daphne.log") as url:
        yield url


def test_a_partner_closing_the_page_is_shown_gone_within_15_s(chromium, server_url):
    host_ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    guest_ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    try:
        start_match(host, server_url, "invite")
        wait_until_live(host)
        host.wait_for_selector('#presence li[data-seat="1"][data-state="not-yet"]')
        assert "Player 2 has not joined yet" in host.locator("#presence").inner_text()
        assert host.locator("aside.invites li").count() == 1
        guest.goto(host.get_by_label("Invite link for Player 2").input_value())
        guest.get_by_role("button", name="Join as Player 2").click()
        wait_until_live(guest)
        host.wait_for_selector('#presence li[data-seat="1"][data-state="here"]', timeout=15_000)
        assert "Player 1 is connected" in guest.locator("#presence").inner_text()
        # The link is used up: the host's page drops it, and with its only link the invite box.
        host.wait_for_selector("aside.invites", state="detached", timeout=5_000)
        guest_ctx.close()
        closed = time.monotonic()
        host.wait_for_selector('#presence li[data-seat="1"][data-state="gone"]', timeout=15_000)
        shown = time.monotonic() - closed
        print(f"partner shown gone {shown:.1f} s after closing the page")
        assert shown < 15
        assert "Player 2 is not connected" in host.locator("#presence").inner_text()
        host.screenshot(path=str(ARTIFACTS / "presence-partner-gone-phone.png"), full_page=False)
    finally:
        host_ctx.close()
        guest_ctx.close()


def join_round(chromium, url: str, pid: str):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url + f"&PROLIFIC_PID={pid}")
    page.get_by_role("button", name="I agree, start the study").click()
    page.get_by_role("button", name="I'm ready, start round 1").click()
    return context, page


def pair_in_round_1(chromium, server: str, slug: str):
    link = f"{server}/s/{slug}/?condition=human"
    stays_ctx, stays = join_round(chromium, link, f"{slug}-stays")
    leaves_ctx, leaves = join_round(chromium, link, f"{slug}-leaves")
    for page in (stays, leaves):
        page.wait_for_url(re.compile(r"/round/1/$"), timeout=20_000)
        wait_until_live(page)
    stays.wait_for_selector("#presence li[data-state='here']", timeout=15_000)
    return stays_ctx, stays, leaves_ctx, leaves


def test_a_study_round_ends_within_30_s_of_the_partner_leaving(chromium, presence_server):
    stays_ctx, stays, leaves_ctx, _ = pair_in_round_1(chromium, presence_server, "left-end")
    try:
        leaves_ctx.close()
        closed = time.monotonic()
        stays.wait_for_selector("#presence li[data-state='gone']", timeout=15_000)
        gone = time.monotonic() - closed
        stays.get_by_text("Your partner left the game, so this round ended.").wait_for(timeout=30_000)
        ended = time.monotonic() - closed
        print(f"study round: partner gone after {gone:.1f} s, round ended after {ended:.1f} s")
        assert gone < 15 and ended < 30
        stays.wait_for_selector("#board .santorini .cell")
        assert stays.locator("#board .santorini button.cell").count() == 0  # nothing left to play
        stays.screenshot(path=str(ARTIFACTS / "presence-study-round-ended-phone.png"), full_page=False)
        stays.get_by_role("button", name="Continue to round 2").click()
        stays.wait_for_url(re.compile(r"/(wait|round)/2/$"))
    finally:
        stays_ctx.close()
        leaves_ctx.close()


def test_the_fallback_agent_takes_the_seat_within_30_s_and_the_round_goes_on(chromium, presence_server):
    stays_ctx, stays, leaves_ctx, leaves = pair_in_round_1(chromium, presence_server, "left-agent")
    try:
        leaves_ctx.close()
        closed = time.monotonic()
        stays.get_by_text("the computer agent random plays their seat from now on").wait_for(timeout=30_000)
        taken = time.monotonic() - closed
        print(f"study round: the fallback agent took the seat after {taken:.1f} s")
        assert taken < 30
        # The round goes on: the agent answers the moves of the one who stays.
        assert stays.locator("#study-continue-form").count() == 0
        moved = 0
        deadline = time.monotonic() + 60
        while moved < 3 and time.monotonic() < deadline:
            before = stays.locator("#board").inner_html()
            if click_something(stays):
                wait_for_board_change(stays, before, timeout=15_000)
                moved += 1
            else:
                stays.wait_for_timeout(150)  # the agent's turn
        assert moved == 3, "the round did not go on after the agent took over"
    finally:
        stays_ctx.close()
        leaves_ctx.close()
