"""Every manage.py command starts by loading the apps; what that loads is paid by each command, each test that
starts one, and each worker. The heavy libraries load where they are used: openai when a model is called, daphne's
server (twisted) when runserver runs, the Atari emulator (ale-py, numpy) when a bout is played. Checked by module
name, not by time, so a loaded machine cannot make it flaky; the README's timing (`manage.py help` under 1 s of
CPU) follows from it."""

from __future__ import annotations

import subprocess
import sys

from tests.support.live_server import ROOT, server_env

HEAVY = ("openai", "twisted", "daphne.server", "ale_py", "multi_agent_ale_py", "numpy", "scipy", "pandas")


def imported_by(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "manage.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=server_env("sqlite:///:memory:"))
    assert done.returncode == 0, done.stderr[-3000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_manage_py_help_and_check_load_no_heavy_library():
    for command in (["help"], ["check"]):
        loaded = imported_by(*command)
        assert "django" in loaded  # the measurement sees imports at all
        heavy = sorted(name for name in loaded if any(name == h or name.startswith(h + ".") for h in HEAVY))
        assert not heavy, f"manage.py {command[0]} imports {heavy[:8]}"


def test_the_measurement_sees_a_heavy_import_when_there_is_one():
    """Positive control: a command that does need openai is seen loading it."""
    loaded = imported_by("shell", "-c", "import agents_app.agents.llm.client as c; c.make_openai_client")
    assert "openai" not in loaded  # importing the client module alone still does not load it
    loaded = imported_by("shell", "-c", "import openai")
    assert "openai" in loaded
