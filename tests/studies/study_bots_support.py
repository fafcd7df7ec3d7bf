"""What the study-bot acceptance runs share (tests/studies/test_study_bots_gnomes.py and test_study_bots_santorini.py,
and the other studies run by bots): the cohort size asked for, manage.py run as a researcher runs it, the exported CSV
files read back, and a preset loaded with its LLM configuration pointed at a scripted model server."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

from tests.support.live_server import ROOT

# The cohorts' sizes. The default run (CI) plays small cohorts: every condition twice, so each condition's data,
# every per-round test and the pairing of the human condition are all exercised, in a fifth of the time.
# STUDY_BOTS_COHORT=full plays the sizes the seeds' studies call for (30 and 32 bots, about 15 minutes):
#   STUDY_BOTS_COHORT=full .venv/bin/pytest tests/studies/test_study_bots_gnomes.py \
#       tests/studies/test_study_bots_santorini.py -k bots_through
FULL_COHORT = os.environ.get("STUDY_BOTS_COHORT") == "full"


def manage(env: dict, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def read_csv(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def load_preset_with_its_llm(env, preset: str, fixture: str, agent: str) -> None:
    """Load a preset as a researcher would: refused while its LLM configuration is missing, loaded after it."""
    refused = manage(env, "load_study", preset)
    assert refused.returncode != 0 and agent in refused.stderr
    loaded = manage(env, "loaddata", fixture)
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    loaded = manage(env, "load_study", preset, "--open")
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr


def point_agent_at(env, agent: str, base_url: str) -> None:
    """The fixture names a local server; point it at the scripted one (as a researcher edits it in the admin)."""
    pointed = manage(env, "shell", "-c", (
        "from agents_app.models import AgentConfig; "
        f"AgentConfig.objects.filter(name='{agent}').update(base_url='{base_url}')"
    ))
    assert pointed.returncode == 0, pointed.stderr
