"""The play_match management command: agent-vs-agent matches from the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from gameplay.models import Event, Match
from tests.support.live_server import migrate, server_env

ROOT = Path(__file__).resolve().parents[2]


def run_command(**kwargs) -> list[dict]:
    buf = io.StringIO()
    call_command("play_match", game="santorini", agents="random,random", json=True, stdout=buf, **kwargs)
    lines = buf.getvalue().splitlines()
    return [json.loads(line) for line in lines]


def assert_consistent_result(result: dict) -> None:
    scores = result["scores"]
    assert len(scores) == 2
    assert sum(scores) == pytest.approx(1.0)
    leaders = [i for i, s in enumerate(scores) if s == max(scores)]
    if result["winner"] is None:
        assert len(leaders) > 1
        assert result["winners"] == []  # two seats with equal scores: a draw
    else:
        assert isinstance(result["winner"], int)
        assert leaders == [result["winner"]] == result["winners"]
    assert result["teams"] is None
    assert result["turns"] == len(result["moves"]) > 0


@pytest.mark.django_db
def test_json_output_describes_a_stored_finished_match():
    results = run_command(seed=7)
    assert len(results) == 1
    result = results[0]
    assert result["game"] == "santorini"
    assert result["seed"] == 7
    assert result["agents"] == ["random", "random"]
    assert result["status"] == "finished"
    assert_consistent_result(result)

    match = Match.objects.get(pk=result["match_id"])
    assert match.status == Match.Status.FINISHED
    assert match.seed == 7
    assert match.scores == result["scores"]
    assert match.winner == result["winner"]
    actions = list(match.events.filter(kind=Event.Kind.ACTION).order_by("seq"))
    assert [f"{e.seat}:{e.payload['action_id']}" for e in actions] == result["moves"]
    assert not match.seats.filter(controller="human").exists()
    # Both seats moved, turn by turn.
    assert {e.seat for e in actions} == {0, 1}


@pytest.mark.django_db
def test_same_seed_same_moves():
    first, second = run_command(seed=7)[0], run_command(seed=7)[0]
    assert first["match_id"] != second["match_id"]
    assert first["moves"] == second["moves"]
    assert first["scores"] == second["scores"]
    assert first["winner"] == second["winner"]


@pytest.mark.django_db
def test_count_plays_consecutive_seeds():
    results = run_command(seed=7, count=3)
    assert [r["seed"] for r in results] == [7, 8, 9]
    assert len({r["match_id"] for r in results}) == 3
    for r in results:
        assert_consistent_result(r)
    # Different seeds give different games.
    assert len({tuple(r["moves"]) for r in results}) == 3
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 3


@pytest.mark.django_db
def test_options_are_passed_to_the_game():
    buf = io.StringIO()
    call_command(
        "play_match", game="santorini", agents="random,random", seed=1, json=True, stdout=buf,
        options='{"alternate_workers": true}',
    )
    result = json.loads(buf.getvalue())
    assert Match.objects.get(pk=result["match_id"]).options["alternate_workers"] is True


@pytest.mark.django_db
def test_plain_output_is_one_line_per_match():
    buf = io.StringIO()
    call_command("play_match", game="santorini", agents="random,random", seed=3, count=2, stdout=buf)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2
    assert all("santorini seed" in line and "winner" in line for line in lines)


# --- as a real process: exit codes and stderr ---------------------------------


@pytest.fixture(scope="module")
def cli_env(tmp_path_factory):
    db = tmp_path_factory.mktemp("cli") / "cli.sqlite3"
    env = server_env(f"sqlite:///{db}")
    migrate(env)
    return env


def manage(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--game", "chess", "--agents", "random,random"], "unknown game 'chess'"),
        (["--game", "santorini", "--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["--game", "santorini", "--agents", "random,random", "--options", "[1]"], "--options"),
        (["--game", "santorini", "--agents", "random,random", "--count", "0"], "--count"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(cli_env, args, expected):
    result = manage(cli_env, "play_match", *args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert expected in lines[0]
    assert result.stdout == ""


def test_cli_run_prints_json(cli_env):
    result = manage(cli_env, "play_match", "--game", "santorini", "--agents", "random,random", "--seed", "7", "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["seed"] == 7
    assert_consistent_result(data)


@pytest.mark.django_db
def test_a_team_win_names_every_winning_seat_and_the_teams():
    buf = io.StringIO()
    call_command("play_match", game="codenames", agents="random,random,random,random", seed=7, json=True, stdout=buf)
    result = json.loads(buf.getvalue())
    assert result["status"] == "finished" and result["winner"] is None
    assert result["teams"] == [0, 1, 0, 1]
    top = max(result["scores"])
    assert result["winners"] == [s for s, score in enumerate(result["scores"]) if score == top]
    assert result["winners"] in ([0, 2], [1, 3])
