"""The API key of an LLM seat is used, and appears nowhere the platform writes or shows.

The config names a custom environment variable; its distinctive value must reach the model server (proving
it was used) and must not be found in the database, the export, the replay, the admin, check_agent's output
or any log record.
"""

from __future__ import annotations

import io
import logging

import pytest
from django.core.management import call_command

from agents_app.models import AgentCall, AgentConfig
from gameplay.models import Match
from tests.agents_app.llm_match_support import (  # noqa: F401  (eager_celery is a fixture)
    calls_of,
    eager_celery,
    first_listed_action,
    llm_config,
    play_llm_vs_random,
)
from tests.support.openai_server import scripted_openai_server

# Real commits: agents answer once the transaction of a move commits (gameplay.signals.agent_turn_due).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

KEY_VAR = "GAMEBENCH_LEAK_TEST_KEY"
KEY = "sk-leakcheck-Zq8V3mN1xR7tW2pL"
# The client may log or send only part of a key; a long fragment is as bad as the whole.
FRAGMENTS = (KEY, KEY[3:], KEY[-12:])


def assert_no_key(text: str, where: str) -> None:
    for fragment in FRAGMENTS:
        assert fragment not in text, f"the API key leaked into {where}"


@pytest.fixture
def all_loggers_at_debug(caplog):
    """Every logger, including third-party ones (openai, httpx, httpcore), records at DEBUG into caplog."""
    caplog.set_level(logging.DEBUG)
    for name in list(logging.root.manager.loggerDict):
        caplog.set_level(logging.DEBUG, logger=name)
    for name in ("openai", "httpx", "httpcore", "urllib3", "django.db.backends"):
        caplog.set_level(logging.DEBUG, logger=name)
    return caplog


def test_the_key_is_used_but_never_stored_shown_or_logged(monkeypatch, all_loggers_at_debug, client, admin_client):
    monkeypatch.setenv(KEY_VAR, KEY)
    with scripted_openai_server(first_listed_action) as server:
        config = llm_config("keyed", server.base_url, api_key_env=KEY_VAR)
        match = play_llm_vs_random("keyed")
        assert match.status == Match.Status.FINISHED
        out, err = io.StringIO(), io.StringIO()
        call_command("check_agent", "keyed", stdout=out, stderr=err)
        call_command("check_agent", "keyed", "--json", stdout=out, stderr=err)
        check_output = out.getvalue() + err.getvalue()

    # Used: every request the server saw carried it.
    assert server.requests and all(r.headers.get("authorization") == f"Bearer {KEY}" for r in server.requests)
    calls = calls_of(match)
    assert calls

    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert "keyed" in dump.getvalue()  # the dump does hold the match and its transcripts
    assert_no_key(dump.getvalue(), "a dumpdata of the database")

    export = client.get(f"/matches/{match.pk}/transcripts.jsonl")
    assert_no_key(b"".join(export.streaming_content).decode(), "the JSONL export")

    steps = sorted({c.event.seq for c in calls})
    for step in steps[:3] + steps[-2:]:
        page = client.get(f"/matches/{match.pk}/replay/?step={step}")
        assert "Model calls" in page.content.decode()
        assert_no_key(page.content.decode(), f"the replay page (step {step})")

    admin_pages = [
        f"/admin/agents_app/agentconfig/{config.pk}/change/",
        "/admin/agents_app/agentconfig/",
        "/admin/agents_app/agentcall/",
        f"/admin/agents_app/agentcall/?q={match.pk}",
        f"/admin/agents_app/agentcall/{calls[0].pk}/change/",
    ]
    for url in admin_pages:
        page = admin_client.get(url)
        assert page.status_code == 200, url
        assert_no_key(page.content.decode(), url)
    config_page = admin_client.get(admin_pages[0]).content.decode()
    assert KEY_VAR in config_page and "is set" in config_page  # the name and its presence, not the value

    assert "json mode" in check_output.lower()
    assert_no_key(check_output, "check_agent's output")

    records = all_loggers_at_debug.records
    # The capture works at DEBUG for the client stack itself (request building, connections).
    assert any(r.name.startswith("openai") and r.levelno == logging.DEBUG for r in records)
    assert_no_key(all_loggers_at_debug.text, "the log")
    for record in records:
        assert_no_key(record.getMessage() + str(record.__dict__), f"log record {record.name}")
    assert AgentCall.objects.filter(match=match).count() == len(calls)
    assert AgentConfig.objects.get(name="keyed").api_key_env == KEY_VAR
