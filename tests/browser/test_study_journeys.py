"""Human-subject studies in a real browser (Playwright, Debian's Chromium, daphne on SQLite):

- one participant goes consent → instructions → the five Gnomes rounds against the mute agent → survey →
  the completion page with its code, on a phone;
- closing the browser in the middle of round 3 and opening the study link again returns to round 3 with the
  game as it was.

The study is the seeds/003 preset (fixtures/studies/gnomes_seeds003.json) in piloting mode, where the
?condition= parameter picks the condition; the resume test uses a copy with short early rounds."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.engines.gnomes.maze import ACTIONS, Maze, neighbour
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_gnomes_journeys import my_next_move, token_on, turn_on
from tests.support.live_server import daphne_server, migrate, server_env

ROOT = Path(__file__).resolve().parents[2]
PRESET = ROOT / "fixtures" / "studies" / "gnomes_seeds003.json"
SIDE_A = Maze(9, default_layouts().walls[0])  # the participant's side (seat 0) in the preset


def manage(env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def study_server(tmp_path_factory):
    """A server with the preset study and a short copy of it, both open and in piloting (URL) mode."""
    tmp = tmp_path_factory.mktemp("study-db")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}")
    migrate(env)
    preset = json.loads(PRESET.read_text(encoding="utf-8"))
    short = {**preset, "slug": "gnomes-resume", "rounds": [{**r, "turn_cap": 4} for r in preset["rounds"][:2]]
             + preset["rounds"][2:]}
    (tmp / "short.json").write_text(json.dumps(short), encoding="utf-8")
    manage(env, "load_study", str(PRESET), "--open")
    manage(env, "load_study", str(tmp / "short.json"), "--open")
    manage(env, "shell", "-c", "from gameplay.studies.models import Study; Study.objects.update(assignment='url')")
    ARTIFACTS.mkdir(exist_ok=True)
    with daphne_server(env, log_path=ARTIFACTS / "study-daphne.log") as url:
        yield url


def exploring_move(maze: Maze, cell, visits: Counter) -> str:
    """Without the treasure in sight, a person explores: the open move to the least-visited cell."""
    options = [a for a in ACTIONS[1:] if maze.can_move(cell, a)]
    return min(options, key=lambda a: (visits[neighbour(cell, a)], ACTIONS.index(a)))


def play_round_until_over(page, round_number: int, max_presses: int = 200) -> int:
    """Press arrow buttons as the participant until the Continue button shows; returns the presses."""
    spec = default_layouts().round(round_number)
    treasure = spec.treasure if spec.seen_by == 0 else None
    visits: Counter = Counter()
    presses = 0
    deadline = time.monotonic() + 240
    while not page.locator("#study-continue-form").count():
        assert time.monotonic() < deadline, f"round {round_number} did not end in time"
        page.wait_for_selector("#board .gnomes-turn.mine, #study-continue-form", timeout=30_000)
        if page.locator("#study-continue-form").count() or page.locator("#board .gnomes-turn.mine").count() == 0:
            continue
        cell = token_on(page)
        visits[cell] += 1
        action = my_next_move(SIDE_A, cell, treasure) if treasure else exploring_move(SIDE_A, cell, visits)
        before = turn_on(page)
        page.locator(f'#board button[data-action-id="{action}"]').click()
        presses += 1
        assert presses <= max_presses
        page.wait_for_function(
            "t => Number(document.querySelector('#board .gnomes-turn').dataset.turn) > t", arg=before, timeout=30_000
        )
        if page.locator("#board .gnomes-turn").inner_text().find("Your move") < 0:
            page.wait_for_selector("#board .gnomes-turn.mine, #study-continue-form", timeout=30_000)
    return presses


def test_a_participant_plays_five_rounds_with_the_mute_agent_and_gets_the_code(chromium, study_server):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(study_server + "/s/gnomes-seeds003/?PROLIFIC_PID=pw-journey-1&STUDY_ID=st-1&SESSION_ID=se-1"
                  "&condition=mute")
        page.get_by_role("button", name="I agree, start the study").click()
        page.get_by_role("button", name="I'm ready, start round 1").click()
        for number in range(1, 6):
            page.wait_for_url(re.compile(rf"/round/{number}/$"))
            page.wait_for_selector("#board svg.maze")
            assert f"Round {number} of 5" in page.locator("h1").inner_text()
            assert page.locator("#chat-text").count() == 0  # the mute condition has no chat
            presses = play_round_until_over(page, number)
            assert presses >= 1
            if number == 3:
                page.screenshot(path=str(ARTIFACTS / "study-round3-over.png"), full_page=True)
            label = "Continue to the last questions" if number == 5 else f"Continue to round {number + 1}"
            page.get_by_role("button", name=label).click()
        page.wait_for_url(re.compile(r"/survey/$"))
        for fieldset in page.locator("fieldset.likert").all():
            fieldset.locator('input[value="4"]').check()
        page.screenshot(path=str(ARTIFACTS / "study-survey.png"), full_page=True)
        page.get_by_role("button", name="Submit answers").click()
        page.wait_for_url(re.compile(r"/complete/$"))
        code = page.locator(".completion-code").inner_text()
        page.screenshot(path=str(ARTIFACTS / "study-complete.png"), full_page=True)
        assert code == "GNOMES-2026"
    finally:
        context.close()


def test_closing_the_browser_in_round_3_and_reopening_the_link_resumes_round_3(chromium, study_server):
    link = study_server + "/s/gnomes-resume/?PROLIFIC_PID=pw-resume-1&STUDY_ID=st-1&SESSION_ID=se-2&condition=comm"
    first = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = first.new_page()
    page.set_default_timeout(15_000)
    page.goto(link)
    page.get_by_role("button", name="I agree, start the study").click()
    page.get_by_role("button", name="I'm ready, start round 1").click()
    for number in (1, 2):  # four-move rounds
        page.wait_for_url(re.compile(rf"/round/{number}/$"))
        play_round_until_over(page, number)
        page.get_by_role("button", name=f"Continue to round {number + 1}").click()
    page.wait_for_url(re.compile(r"/round/3/$"))
    page.wait_for_selector("#board .gnomes-turn.mine")
    page.locator('#board button[data-action-id="down"]').click()  # (0,0) -> (0,1): open on side A
    page.wait_for_function("() => Number(document.querySelector('#board .gnomes-turn').dataset.turn) >= 2",
                           timeout=30_000)
    page.get_by_label("Message to your partner").fill("where is the treasure?")
    page.get_by_label("Message to your partner").press("Enter")
    page.wait_for_selector("#chat-log >> text=where is the treasure?")
    before = (token_on(page), turn_on(page), page.locator("#chat-log").inner_text(), page.url)
    first.close()  # the browser is closed: its cookies and session are gone

    second = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        again = second.new_page()
        again.set_default_timeout(15_000)
        again.goto(link)  # the same study link
        again.wait_for_url(re.compile(r"/round/3/$"))
        again.wait_for_selector("#board svg.maze")
        again.screenshot(path=str(ARTIFACTS / "study-resumed-round3.png"), full_page=True)
        assert "Round 3 of 5" in again.locator("h1").inner_text()
        after = (token_on(again), turn_on(again), again.locator("#chat-log").inner_text(), again.url)
        assert after == before  # same match: token, turn count and chat as they were
    finally:
        second.close()
