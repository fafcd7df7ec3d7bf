"""Every kind of page passes axe-core with no serious or critical violation (issue 16.8).

axe-core (tests/support/vendor/axe.min.js, vendored: never served to players) runs in Debian's Chromium on the
lobby, each game's new-match and live match page (after the socket drew it), a replay, the match list, the study
journey (consent, instructions, the comprehension check, a round, the survey, the completion page), the researcher
dashboard and the leaderboard. The pages' Content-Security-Policy allows scripts from the site only, so the test's
browser context bypasses it to inject axe; nothing else about the pages changes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.journey_support import manage, serious_violations
from tests.browser.new_match import start_new_match
from tests.browser.santorini_player import wait_until_live
from tests.support.live_server import daphne_server, migrate, server_env
from tests.support.presets import GNOMES_LLM_AGENT

ROOT = Path(__file__).resolve().parents[2]
GNOMES_PRESET = ROOT / "fixtures" / "studies" / "gnomes_seeds003.json"


# The study's comprehension check and a question of every kind after its Likert items (issue 38, point 6).
COMPREHENSION = [{"key": "goal", "prompt": "What is the goal?", "options": ["Find the treasure", "Hide"],
                  "answer": "Find the treasure"}]
QUESTIONS = [
    {"key": "tactics", "kind": "multiple", "prompt": "Which tactics did you use?", "options": ["Left", "Wait"]},
    {"key": "colour", "kind": "single", "prompt": "Please choose Blue.", "options": ["Red", "Blue"],
     "expected": "Blue"},
    {"key": "age", "kind": "number", "prompt": "How old are you?", "min": 18, "max": 99, "integer": True},
    {"key": "notes", "kind": "text", "prompt": "Anything else?", "required": False},
]


@pytest.fixture(scope="module")
def a11y_server(tmp_path_factory):
    """A server with a one-round copy of the Gnomes study (two moves a round, against the mute agent, with a
    comprehension check and questions of every kind) and a staff account for the researcher pages."""
    tmp = tmp_path_factory.mktemp("a11y-db")
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}", RATING_BOOTSTRAP="200")
    migrate(env)
    preset = json.loads(GNOMES_PRESET.read_text(encoding="utf-8"))
    short = {**preset, "slug": "a11y", "assignment": "url", "rounds": [{"round": 1, "turn_cap": 2, "first_seat": 0}],
             "comprehension_items": COMPREHENSION, "questions": QUESTIONS}
    (tmp / "a11y.json").write_text(json.dumps(short), encoding="utf-8")
    manage(env, "loaddata", str(GNOMES_LLM_AGENT))  # the preset's LLM partner
    manage(env, "load_study", str(tmp / "a11y.json"), "--open")
    manage(env, "shell", "-c", "from django.contrib.auth.models import User; "
           "User.objects.create_superuser('researcher', 'r@example.org', 'a-long-test-password')")
    with daphne_server(env) as url:
        yield url


@pytest.fixture
def axe_page(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                   bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def check(page, label: str, found: dict) -> None:
    violations = serious_violations(page)
    if violations:
        found[f"{label} ({page.url})"] = violations


def report(found: dict) -> str:
    return json.dumps(found, indent=1)


def start(page, url: str, game_name: str, seat_label: str, partner: str) -> None:
    start_new_match(page, url, game_name, {seat_label: partner})
    wait_until_live(page)


def test_the_public_pages_and_every_game_page(axe_page, a11y_server):
    page, url, found = axe_page, a11y_server, {}
    for path, label in (("/", "lobby"), ("/matches/", "match list"), ("/ratings/", "leaderboard"),
                        ("/games/santorini/new/", "new Santorini match"), ("/games/hive/new/", "new Hive match"),
                        ("/games/gnomes/new/", "new Gnomes match"),
                        ("/games/atari_boxing/new/", "new Atari Boxing match"),
                        ("/games/air_land_sea/new/", "new Air, Land & Sea match"),
                        ("/games/arctic_scavengers/new/", "new Arctic Scavengers match"),
                        ("/games/pit/new/", "new Pit match"), ("/games/sea_battle/new/", "new Sea Battle match"),
                        ("/games/meeting_scheduling/new/", "new Meeting Scheduling match"),
                        ("/games/fruit_trading/new/", "new Fruit Trading match"),
                        ("/games/debate/new/", "new Debate match"),
                        ("/games/codenames/new/", "new Codenames match"),
                        ("/games/who_is_spy/new/", "new Who is Spy match")):
        page.goto(url + path)
        check(page, label, found)
    for game, seat, partner in (("Santorini", "Player 2", "agent:random"), ("Hive", "Black", "agent:random"),
                                ("Atari Boxing", "Black", "agent:boxer"),
                                ("Air, Land & Sea", "Red", "agent:random"),
                                ("Arctic Scavengers", "East Tribe", "agent:random"),
                                ("Pit", "Player 3", "agent:random"), ("Sea Battle", "Blue", "agent:random"),
                                ("Meeting Scheduling", "Player 2", "agent:random"),
                                ("Fruit Trading", "Player 2", "agent:random"),
                                ("Debate", "Against", "agent:random"),
                                ("Codenames", "Player 2", "agent:random"),
                                ("Who is Spy", "Player 2", "agent:random"),
                                ("Gnomes at Night", "Gnome B", "agent:gnomes-mute")):
        start(page, url, game, seat, partner)
        check(page, f"{game} match page", found)
        page.get_by_text("Resign or leave…").or_(page.get_by_text("Give up or leave…")).first.click()
        check(page, f"{game} match page, resign open", found)
    page.get_by_role("button", name="Give up", exact=True).click()
    page.wait_for_selector("#result")
    page.get_by_role("link", name="Watch the replay").click()
    check(page, "replay", found)
    assert not found, "serious or critical axe violations:\n" + report(found)


def test_the_study_journey_and_the_researcher_pages(axe_page, a11y_server):
    page, url, found = axe_page, a11y_server, {}
    page.goto(url + "/s/a11y/?PROLIFIC_PID=axe-1&condition=mute")
    check(page, "consent", found)
    page.get_by_role("button", name="I agree, start the study").click()
    check(page, "instructions", found)
    page.get_by_role("button", name="Continue to a few questions about the rules").click()
    page.wait_for_url(re.compile(r"/comprehension/$"))
    check(page, "comprehension check", found)
    page.get_by_label("Hide").check()
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_role("alert").filter(has_text="not right").wait_for()
    check(page, "comprehension check, a wrong answer marked", found)
    page.get_by_label("Find the treasure").check()
    page.get_by_role("button", name="Check my answers").click()
    page.wait_for_url(re.compile(r"/round/1/$"))
    wait_until_live(page)
    check(page, "study round", found)
    for _ in range(4):
        if page.locator("#study-continue-form").count():
            break
        page.wait_for_selector("#board .gnomes-turn.mine, #study-continue-form", timeout=30_000)
        if page.locator("#study-continue-form").count():
            break
        page.locator('#board button[data-action-id="stay"]').click()
        page.wait_for_timeout(300)
    page.wait_for_selector("#study-continue-form", timeout=30_000)
    check(page, "study round over", found)
    page.get_by_role("button", name="Continue to the last questions").click()
    page.wait_for_url(re.compile(r"/survey/$"))
    check(page, "survey", found)
    for fieldset in page.locator("fieldset.likert").all():
        fieldset.locator('input[value="3"]').check()
    page.get_by_label("Wait").check()
    page.get_by_label("Blue").check()
    page.get_by_label("How old are you?").fill("30")
    page.get_by_role("button", name="Submit answers").click()
    page.wait_for_url(re.compile(r"/complete/$"))
    check(page, "completion", found)
    # The code has a copy button (and the page no longer leaves by itself: no meta refresh).
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy the code").click()
    page.get_by_role("status").filter(has_text="Copied.").wait_for()
    assert page.evaluate("() => navigator.clipboard.readText()") == "GNOMES-2026"
    assert page.get_by_role("link", name="Return to the study platform").count() == 1

    page.goto(url + "/studies/")
    check(page, "researchers only (signed out)", found)
    page.goto(url + "/admin/login/?next=/studies/a11y/")
    page.get_by_label("Username").fill("researcher")
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/studies/a11y/$"))
    check(page, "study dashboard", found)
    page.goto(url + "/studies/")
    check(page, "study list", found)
    assert not found, "serious or critical axe violations:\n" + report(found)
