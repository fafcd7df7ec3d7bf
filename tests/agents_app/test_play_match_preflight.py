"""play_match checks every agent before the first match starts (issue 22, point 4): a RAP configuration on an
endpoint without logprobs is refused with exit code 2 and the reason, and nothing is created."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gameplay.models import Match
from tests.agents_app.llm_match_support import first_listed_action, llm_config
from tests.support.live_server import ROOT, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = pytest.mark.django_db


def test_a_rap_configuration_without_logprobs_exits_2_before_the_match_starts(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrate(env)
    plain = ScriptedReply.text({"action": "anything"}, logprobs=[])  # no logprobs, whatever was asked
    with scripted_openai_server(lambda body: plain) as server:
        create = (
            "from tests.agents_app.llm_match_support import llm_config; "
            f"llm_config('rapper', {server.base_url!r}, scaffold='rap')"
        )
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c", create], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
        run = subprocess.run(
            [sys.executable, "manage.py", "play_match", "--game", "santorini", "--agents", "rapper,random"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )
        count = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c",
             "from gameplay.models import Match; print(Match.objects.count())"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "'rapper' cannot play" in run.stderr and "logprobs" in run.stderr
    assert count.stdout.strip().splitlines()[-1] == "0"  # refused before any match was created


def test_the_same_check_in_process_leaves_no_match():
    from django.core.management import CommandError, call_command

    with scripted_openai_server(lambda body: ScriptedReply.text({"action": "x"}, logprobs=[])) as server:
        llm_config("rapper", server.base_url, scaffold="rap")
        with pytest.raises(CommandError, match="logprobs") as caught:
            call_command("play_match", game="santorini", agents="rapper,random")
    assert caught.value.returncode == 2 and not Match.objects.exists()


def test_a_model_call_prints_no_http_log_line(tmp_path):
    """Management commands logged one "HTTP Request: POST ..." line per model call (issue 22); the calls are
    stored, so the HTTP libraries log warnings only."""
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}", LOG_LEVEL="INFO")  # the default level
    migrate(env)
    with scripted_openai_server(first_listed_action) as server:
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c",
             "from agents_app.models import AgentConfig; "
             f"AgentConfig.objects.create(name='plain', base_url={server.base_url!r}, model='m', api_key_env='')"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )
        assert made.returncode == 0, made.stderr
        run = subprocess.run(
            [sys.executable, "manage.py", "play_match", "--game", "santorini", "--agents", "plain,random"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    assert server.requests, "the model was never asked"
    assert "HTTP Request" not in run.stdout + run.stderr
