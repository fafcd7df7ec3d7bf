"""Human-subject studies in a real browser (Playwright, Debian's Chromium, daphne on SQLite):

- one participant goes consent → instructions → the five Gnomes rounds against the mute agent → survey →
  the completion page with its code, on a phone;
- closing the tab in the middle of round 3 and opening the study link again in the same browser returns to
  round 3 with the game as it was; a fresh browser with the same PROLIFIC_PID is told it has taken part and
  gets nothing of the first participation;
- one participant plays the Santorini preset's LLM condition (the santorini-llm configuration answered by a
  scripted OpenAI-compatible server that plays legal moves) to the completion code.

The studies are the seeds/003 and Santorini presets (fixtures/studies/) in piloting mode, where the
?condition= parameter picks the condition; the resume test uses a copy with short early rounds."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from gameplay.engines.gnomes.layouts import default_layouts
from gameplay.engines.gnomes.maze import ACTIONS, Maze, neighbour
from tests.browser.conftest import ARTIFACTS
from tests.browser.gnomes_player import my_next_move, token_on, turn_on
from tests.browser.journey_support import manage
from tests.browser.santorini_player import click_something, wait_for_board_change
from tests.support.live_server import daphne_server, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server
from tests.support.presets import GNOMES_LLM_AGENT

ROOT = Path(__file__).resolve().parents[2]
PRESET = ROOT / "fixtures" / "studies" / "gnomes_seeds003.json"
SANTORINI_PRESET = ROOT / "fixtures" / "studies" / "santorini_agents.json"
SANTORINI_LLM = ROOT / "fixtures" / "studies" / "santorini_llm_agent.json"
_LISTED = re.compile(r"Available actions \(id: label\):\n(.+?): ")


def first_listed_action(body) -> ScriptedReply:
    """A model that plays the first action of the latest list it was shown (always a legal move)."""
    text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []) if isinstance(m, dict))
    found = _LISTED.findall(text)
    return ScriptedReply.text({"action": found[-1]} if found else {"explain": "moves"})
SIDE_A = Maze(9, default_layouts().walls[0])  # the participant's side (seat 0) in the preset


@pytest.fixture(scope="module")
def llm_model():
    with scripted_openai_server(first_listed_action) as server:
        yield server


@pytest.fixture(scope="module")
def study_server(tmp_path_factory, llm_model):
    """A server with the presets and a short copy of seeds/003, all open and in piloting (URL) mode; the
    Santorini preset's LLM configuration points at the scripted model."""
    tmp = tmp_path_factory.mktemp("study-db")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}")
    migrate(env)
    manage(env, "loaddata", str(SANTORINI_LLM))
    manage(env, "loaddata", str(GNOMES_LLM_AGENT))
    manage(env, "shell", "-c", "from agents_app.models import AgentConfig; "
           f"AgentConfig.objects.update(base_url='{llm_model.base_url}')")
    manage(env, "load_study", str(SANTORINI_PRESET), "--open")
    preset = json.loads(PRESET.read_text(encoding="utf-8"))
    short = {**preset, "slug": "gnomes-resume", "rounds": [{**r, "turn_cap": 4} for r in preset["rounds"][:2]]
             + preset["rounds"][2:]}
    (tmp / "short.json").write_text(json.dumps(short), encoding="utf-8")
    # The five-round journey plays the preset's mazes with each round capped at 8 turns: it checks the way through
    # a whole study (rounds, continue, survey, code) on a phone; finding the treasure is the Gnomes journeys' and the
    # study-bot cohort's (which plays the preset's full rounds). Uncapped, the journey took five minutes of CI.
    quick = {**preset, "slug": "gnomes-quick", "rounds": [{**r, "turn_cap": 8} for r in preset["rounds"]]}
    (tmp / "quick.json").write_text(json.dumps(quick), encoding="utf-8")
    manage(env, "load_study", str(PRESET), "--open")
    manage(env, "load_study", str(tmp / "short.json"), "--open")
    manage(env, "load_study", str(tmp / "quick.json"), "--open")
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
        page.goto(study_server + "/s/gnomes-quick/?PROLIFIC_PID=pw-journey-1&STUDY_ID=st-1&SESSION_ID=se-1"
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
            label = "Continue to the last questions" if number == 5 else f"Continue to round {number + 1}"
            assert "Round" not in page.locator("#board .gnomes-turn").inner_text()  # the h1 says it, once
            if number == 3:
                page.screenshot(path=str(ARTIFACTS / "study-round3-over.png"), full_page=True)
                # On the phone the way on moves above the board: in view from the top of the page.
                page.evaluate("window.scrollTo(0, 0)")
                box = page.get_by_role("button", name=label).bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
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


def test_closing_the_tab_in_round_3_and_reopening_the_link_resumes_round_3(chromium, study_server):
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
    participant_token = page.url.split("/p/")[1].split("/")[0]
    page.close()  # the tab is closed; the browser (its session cookie) stays

    try:
        again = first.new_page()
        again.set_default_timeout(15_000)
        again.goto(link)  # the same study link
        again.wait_for_url(re.compile(r"/round/3/$"))
        again.wait_for_selector("#board svg.maze")
        again.screenshot(path=str(ARTIFACTS / "study-resumed-round3.png"), full_page=True)
        assert "Round 3 of 5" in again.locator("h1").inner_text()
        after = (token_on(again), turn_on(again), again.locator("#chat-log").inner_text(), again.url)
        assert after == before  # same match: token, turn count and chat as they were
    finally:
        first.close()

    # Another browser with the same PROLIFIC_PID (anyone can type an id) resumes nothing.
    second = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        other = second.new_page()
        other.set_default_timeout(15_000)
        response = other.goto(link)
        assert response.status == 403 and "already taken part" in other.locator("main").inner_text()
        assert participant_token not in other.content() and "/round/" not in other.url
    finally:
        second.close()


def play_santorini_round(page, number: int) -> int:
    """Click highlighted squares as the participant until the Continue button shows; returns the clicks."""
    clicks = 0
    deadline = time.monotonic() + 240
    while not page.locator("#study-continue-form").count():
        assert time.monotonic() < deadline, f"round {number} did not end in time"
        before = page.locator("#board").inner_html()
        if click_something(page):
            clicks += 1
            try:
                wait_for_board_change(page, before, timeout=30_000)
            except Exception:  # the round may end with this click: the Continue form is what counts
                if not page.locator("#study-continue-form").count():
                    raise
        else:
            page.wait_for_timeout(150)  # the agent's turn
    return clicks


def test_a_participant_plays_the_santorini_llm_condition_to_the_completion_code(chromium, study_server, llm_model):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    asked_before = len(llm_model.requests)
    try:
        page.goto(study_server + "/s/santorini-agents/?PROLIFIC_PID=pw-santorini-1&condition=llm")
        page.get_by_role("button", name="I agree, start the study").click()
        assert "computer program" in page.locator("main").inner_text()
        page.get_by_role("button", name="I'm ready, start round 1").click()
        for number in (1, 2, 3):
            page.wait_for_url(re.compile(rf"/round/{number}/$"))
            page.wait_for_selector("#board")
            assert f"Round {number} of 3" in page.locator("h1").inner_text()
            assert play_santorini_round(page, number) >= 2  # at least the two worker placements
            if number == 1:
                page.screenshot(path=str(ARTIFACTS / "study-santorini-round1-over.png"), full_page=True)
            label = "Continue to the last questions" if number == 3 else f"Continue to round {number + 1}"
            page.get_by_role("button", name=label).click()
        page.wait_for_url(re.compile(r"/survey/$"))
        for fieldset in page.locator("fieldset.likert").all():
            fieldset.locator('input[value="3"]').check()
        page.get_by_role("button", name="Submit answers").click()
        page.wait_for_url(re.compile(r"/complete/$"))
        assert page.locator(".completion-code").inner_text() == "SANTORINI-2026"
        page.screenshot(path=str(ARTIFACTS / "study-santorini-complete.png"), full_page=True)
    finally:
        context.close()
    assert len(llm_model.requests) > asked_before  # the LLM agent played its seat through the model


def test_in_a_human_pair_the_waiting_participant_sees_whose_turn_it_is_on_a_phone(chromium, study_server):
    """Two people of the Santorini preset's human condition on phones: the first is told how long they may wait
    and sees the countdown; once paired, the one whose turn it is not sees whose it is, then the first move."""
    phones = [chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
              for _ in range(2)]
    first, second = (context.new_page() for context in phones)
    try:
        for number, page in enumerate((first, second), start=1):
            page.set_default_timeout(10_000)
            page.goto(study_server + f"/s/santorini-agents/?PROLIFIC_PID=pw-pair-{number}&condition=human")
            page.get_by_role("button", name="I agree, start the study").click()
            assert "at most 2 minutes" in page.locator("main").inner_text()  # told before the wait
            page.get_by_role("button", name="I'm ready, start round 1").click()
            if number == 1:  # alone for now: the waiting page says how long at most, and counts it down
                page.wait_for_url(re.compile(r"/wait/1/$"))
                assert "You wait at most 2 minutes" in page.locator("#wait-limit").inner_text()
                page.wait_for_function("() => /^1:5\\d$/.test(document.querySelector('[data-clock]').textContent)")
                assert page.locator("#wait-announce[aria-live=polite]").count() == 1
                page.screenshot(path=str(ARTIFACTS / "study-wait-phone.png"))
        for page in (first, second):
            page.wait_for_url(re.compile(r"/round/1/$"))
            page.wait_for_selector("[ws-connect][data-socket=live]")
        second.evaluate("window.scrollTo(0, 0)")
        # The second arrival plays seat 1: Player 1 moves first, and the status says so, in view on the phone.
        assert "Waiting for Player 1" in second.locator("#status").inner_text()
        box = second.locator("#status").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        assert first.locator("#status").inner_text().startswith("Your turn.")
        assert click_something(first)  # Player 1 places a worker
        second.wait_for_function("() => /Last: Player 1/.test(document.querySelector('#status').innerText)")
        second.screenshot(path=str(ARTIFACTS / "study-pair-status-phone.png"))
        assert not [text for text in ("Watch the replay", "Play again", "Resign") if text in second.content()]
    finally:
        for context in phones:
            context.close()
