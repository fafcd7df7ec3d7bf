"""Issue 13's attacks replayed from the outside, one per point of its "Why" that has no black-box test elsewhere.

These use only what any version of the platform offers (the preset study, the HTTP pages, the AgentConfig model,
``manage.py check``), so the same file runs against the code the issue was filed on and fails there; the other
points are shown by their own files (see each test's docstring for the point's words).
"""

from __future__ import annotations

import html
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from agents_app.models import AgentConfig
from gameplay.studies.models import Participant, Study
from tests.support.presets import load_gnomes_preset

ROOT = Path(__file__).resolve().parents[1]
PRESET = ROOT / "fixtures" / "studies" / "gnomes_seeds003.json"
VICTIM = {"PROLIFIC_PID": "5f0c1a2b3c4d5e6f7a8b9c0d", "STUDY_ID": "study-42", "SESSION_ID": "sess_7"}


@pytest.fixture
def study(db) -> Study:
    load_gnomes_preset("--open")
    return Study.objects.get(slug="gnomes-seeds003")


def test_point_1_a_pid_alone_does_not_resume_someone_elses_session(study):
    """ "Anyone who knows a PROLIFIC_PID takes over that participant: GET /s/<slug>/?PROLIFIC_PID=<pid> in a fresh
    browser resumes the victim's session and shows their seat token." """
    victim = Client()
    victim.get(f"/s/{study.slug}/", VICTIM)
    victim.post(f"/s/{study.slug}/consent/", {**VICTIM, "agree": "1"})
    participant = Participant.objects.get()
    secrets_of_victim = [participant.token, *(r.match.seats.get(index=r.seat_index).token for r in
                                              participant.rounds.all())]

    attacker = Client()
    page = attacker.get(f"/s/{study.slug}/", {"PROLIFIC_PID": VICTIM["PROLIFIC_PID"]}, follow=True)

    html = page.content.decode()
    urls = [url for url, _status in page.redirect_chain] + [page.request["PATH_INFO"]]
    assert not any(token in url for url in urls for token in secrets_of_victim), urls
    assert not any(token in html for token in secrets_of_victim)
    assert all(token not in str(attacker.cookies) for token in secrets_of_victim)
    assert Participant.objects.count() == 1


def test_point_7_an_llm_configuration_cannot_name_the_projects_secret(db):
    """ "An admin can exfiltrate any environment variable: api_key_env accepts SECRET_KEY or DATABASE_URL." """
    for name in ("SECRET_KEY", "DATABASE_URL"):
        config = AgentConfig(name=f"exfil-{name.lower()}", base_url="https://attacker.example/v1", model="m",
                             api_key_env=name)
        with pytest.raises(ValidationError) as err:
            config.full_clean()
        assert "api_key_env" in err.value.message_dict, name


def test_point_8_declines_from_one_browser_count_once(study):
    """ "declined_count can be inflated by anyone." """
    browser = Client()
    for _ in range(5):
        browser.post(f"/s/{study.slug}/consent/", {"decline": "1"})
    study.refresh_from_db()
    assert study.declined_count == 1


def test_point_9_an_invite_link_gives_its_seat_to_one_browser_only(db):
    """ "Invite links are permanent bearer links" (a third browser became Player 2 and read the chat)."""
    host = Client()
    page = host.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "invite", "seed": "3"}, follow=True)
    link = re.search(r'<input readonly value="([^"]+)" aria-label="Invite link', page.content.decode()).group(1)
    path = urlsplit(html.unescape(link)).path

    def take_seat(browser: Client) -> str:
        """Open the link as a person would (accepting it where the page asks) and return the page reached."""
        reached = browser.get(path, follow=True)
        if reached.status_code == 200 and 'method="post"' in reached.content.decode():
            reached = browser.post(path, follow=True)
        return reached.content.decode() if reached.status_code == 200 else ""

    assert "ws-connect" in take_seat(Client())  # the guest plays
    assert "ws-connect" not in take_seat(Client())  # a third browser does not


def test_point_10_check_deploy_is_clean_with_a_real_key():
    """ "check --deploy warns W004/W008/W012/W016 with no setting to fix them." (acceptance: `DEBUG=0
    SECRET_KEY=<50 random chars> manage.py check --deploy` prints no warnings) """
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50)[:50], DJANGO_SETTINGS_MODULE="gameplay.project.settings")
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNINGS" not in output and "System check identified no issues" in output, output
