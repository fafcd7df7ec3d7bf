"""python manage.py rate_matches: JSON per scope, terminal tables, filters, clear errors."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.support.live_server import ROOT

FIXTURE = str(Path(__file__).resolve().parents[2] / "fixtures" / "gamebench_matches.json")


def run(*args) -> str:
    out = StringIO()
    call_command("rate_matches", *args, stdout=out)
    return out.getvalue()


def test_json_has_every_scope_with_rating_interval_and_average_score():
    data = json.loads(run("--input", FIXTURE, "--bootstrap", "300", "--seed", "0", "--json"))
    assert data["n_matches"] == 277 and data["config"]["bootstrap"] == 300 and data["config"]["ties"] == "skip"
    assert set(data["scopes"]) == {"overall", *data["games"]} and len(data["games"]) == 9
    human = data["scopes"]["overall"]["agents"]["human"]
    assert human["interval"][0] <= human["rating"] <= human["interval"][1]
    assert 0 <= human["average_score"] <= 1
    assert data["scopes"]["hive"]["excluded"]  # reported, not silently rated


def test_games_filter_and_ties_half():
    data = json.loads(run("--input", FIXTURE, "--bootstrap", "100", "--games", "hive", "--ties", "half", "--json"))
    assert data["games"] == ["hive"] and data["n_matches"] == 21
    assert not data["scopes"]["hive"]["excluded"]


def test_table_output_lists_each_scope():
    text = run("--input", FIXTURE, "--bootstrap", "100")
    assert "== overall (277 matches" in text and "== santorini (25 matches" in text
    assert "not rated:" in text  # hive with ties skipped


@pytest.mark.parametrize(
    "args, message",
    [
        (["--input", "/no/such/file.json"], "cannot read"),
        (["--input", FIXTURE, "--games", "chess"], "no matches"),
    ],
)
def test_errors_exit_2_with_one_line(args, message, tmp_path):
    proc = subprocess.run(
        [sys.executable, "manage.py", "rate_matches", *args, "--bootstrap", "10"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"},
    )
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.django_db
def test_platform_matches_with_date_range():
    import datetime as dt

    from django.utils import timezone

    from tests.rating_app.factories import finished

    old = timezone.now() - dt.timedelta(days=30)
    finished(["human", "random"], [1.0, 0.0], at=old)
    finished(["random", "human"], [1.0, 0.0])
    finished(["human", "random"], [1.0, 0.0])
    everything = json.loads(run("--bootstrap", "50", "--json"))
    yesterday = str(timezone.now().date() - dt.timedelta(days=1))
    recent = json.loads(run("--bootstrap", "50", "--json", "--since", yesterday))
    assert everything["n_matches"] == 3 and recent["n_matches"] == 2
    assert set(recent["scopes"]["overall"]["agents"]) == {"human", "random"}
