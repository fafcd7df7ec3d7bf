"""The realtime load benchmark (issue 14.3): its reading of the socket frames, its audit against the event log,
and one real run against a daphne subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.bench.audit import LoggedAction, Send, audit
from gameplay.bench.fragments import parse_seat_frame
from gameplay.bench.measures import ServerCpu, percentiles
from gameplay.reads import selectors
from gameplay.web.rendering import error_fragment, seat_fragments
from gameplay.writes import services
from tests.support.live_server import ROOT, daphne_server, free_port, migrate, server_env

HUMAN = services.SeatController("human")


def _fragments(match_id: int, seat_index: int) -> str:
    match = selectors.match_by_id(match_id)
    return seat_fragments(selectors.seat_view(match, match.seats.get(index=seat_index), with_chat=False))


@pytest.mark.django_db
def test_frames_give_the_version_the_turn_and_exactly_the_legal_actions():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=5)
    mover = selectors.state_of(match).current_seats()[0]
    legal = [a.id for a in selectors.state_of(match).legal_actions(mover)]

    frame = parse_seat_frame(_fragments(match.pk, mover))
    assert (frame.version, frame.my_turn, frame.finished, frame.error) == (0, True, False, None)
    assert sorted(frame.action_ids) == sorted(legal)

    services.submit_action(match.pk, mover, legal[0], expected_version=0)
    other = parse_seat_frame(_fragments(match.pk, 1 - mover))
    assert other.version == 1
    assert other.error is None


@pytest.mark.django_db
def test_an_error_fragment_is_an_error_and_shows_no_board():
    frame = parse_seat_frame(error_fragment("Your view is out of date <b>. Nothing was changed."))
    assert frame.error == "Your view is out of date <b>. Nothing was changed."
    assert (frame.version, frame.my_turn, frame.action_ids) == (None, False, ())


def _send(version: int, seat: int = 0, action: str = "a", acked: bool = True) -> Send:
    return Send(1, seat, action, version, sent_at=0.0, measured=True, acked_at=0.01 if acked else None)


def test_audit_finds_lost_duplicated_and_missing_versions():
    sends = [_send(0, 0, "x"), _send(1, 1, "y"), _send(2, 0, "z"), _send(3, 1, "w", acked=False)]
    clean = [LoggedAction(1, 0, "x", 1), LoggedAction(1, 1, "y", 2), LoggedAction(1, 0, "z", 3)]
    assert audit(sends, clean) == {"lost": 0, "duplicated": 0, "version_gaps": 0, "applied_unacknowledged": 0}

    # "z" acknowledged but absent; "y" logged twice (once more at version 3); version 4 in flight at the end.
    broken = [*clean[:2], LoggedAction(1, 1, "y", 3), LoggedAction(1, 1, "y", 3), LoggedAction(1, 1, "w", 4)]
    assert audit(sends, broken) == {"lost": 1, "duplicated": 1, "version_gaps": 0, "applied_unacknowledged": 1}

    gap = [clean[0], LoggedAction(1, 0, "z", 3)]
    result = audit(sends[:1] + sends[2:3], gap)
    assert (result["version_gaps"], result["lost"], result["duplicated"]) == (1, 0, 0)


def test_an_agent_seats_actions_answer_no_send_and_are_no_duplicates():
    sends = [_send(0, 0, "x"), _send(2, 0, "z")]
    logged = [LoggedAction(1, 0, "x", 1), LoggedAction(1, 1, "agent-move", 2), LoggedAction(1, 0, "z", 3)]
    assert audit(sends, logged, {1: frozenset({1})}) == {
        "lost": 0, "duplicated": 0, "version_gaps": 0, "applied_unacknowledged": 0
    }
    assert audit(sends, logged)["duplicated"] == 1  # the same log without agents: an action nobody sent
    twice = [*logged, LoggedAction(1, 1, "agent-move", 2)]
    assert audit(sends, twice, {1: frozenset({1})})["duplicated"] == 1  # an agent's action applied twice still is


def test_percentiles_are_measured_values_in_order():
    stats = percentiles([float(v) for v in range(1, 101)])
    assert (stats["count"], stats["p50"], stats["p95"], stats["p99"], stats["max"]) == (100, 50.0, 95.0, 99.0, 100.0)
    assert percentiles([])["p95"] is None


def test_server_cpu_refuses_a_pid_that_is_no_process():
    cpu = ServerCpu([os.getpid()])
    cpu.start()
    sum(i * i for i in range(200_000))
    assert cpu.stop()["cpu_seconds"] >= 0
    with pytest.raises(ValueError, match="no such process"):
        ServerCpu([2**22 + 12345]).start()


def _child_pid_serving(port: int) -> int:
    """The daphne subprocess (a child of this test) listening on ``port``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and b"daphne" in b" ".join(cmdline) and str(port).encode() in cmdline:
            return int(entry.name)
    raise AssertionError(f"no daphne child on port {port}")


@pytest.mark.slow
def test_benchmark_plays_two_matches_against_a_real_server(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'bench.sqlite3'}")
    migrate(env)
    port = free_port()
    with daphne_server(env, port=port, log_path=tmp_path / "daphne.log") as base:
        command = [
            sys.executable, "manage.py", "bench_realtime", "--matches", "2", "--duration", "4", "--warmup", "1",
            "--pace", "0.3", "--url", base, "--server-pid", str(_child_pid_serving(port)), "--json",
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr + (tmp_path / "daphne.log").read_text(errors="replace")[-3000:]
    result = json.loads(done.stdout)
    assert result["matches"] == 2 and result["seats"] == 4
    assert result["moves_applied"] > 0 and result["moves_per_s"] > 0
    assert (result["errors"], result["lost"], result["duplicated"], result["version_gaps"]) == (0, 0, 0, 0), result
    for key in ("round_trip_ms", "partner_delivery_ms"):
        stats = result[key]
        assert stats["count"] > 0
        assert 0 < stats["p50"] <= stats["p95"] <= stats["p99"] <= stats["max"] < 10_000
    assert result["server"]["cpu_seconds"] > 0


@pytest.mark.slow
def test_benchmark_plays_against_an_agent_on_the_server(tmp_path):
    """--agent: the last seat is the server's agent (here on the embedded default's agent-turn threads); only the
    person's seat has a socket, and each agent action is timed on it."""
    env = server_env(f"sqlite:///{tmp_path / 'bench.sqlite3'}")
    migrate(env)
    with daphne_server(env, log_path=tmp_path / "daphne.log") as base:
        command = [
            sys.executable, "manage.py", "bench_realtime", "--matches", "2", "--duration", "4", "--warmup", "1",
            "--pace", "0.3", "--url", base, "--agent", "random", "--json",
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr + (tmp_path / "daphne.log").read_text(errors="replace")[-3000:]
    result = json.loads(done.stdout)
    assert result["seats"] == 2 and result["moves_applied"] > 0
    assert (result["errors"], result["lost"], result["duplicated"], result["version_gaps"]) == (0, 0, 0, 0), result
    assert result["partner_delivery_ms"]["count"] == 0  # nobody else has a socket
    agent = result["agent_reply_ms"]
    assert agent["count"] > 0 and 0 < agent["p50"] <= agent["p95"] <= agent["max"] < 10_000
    assert result["agent_moves_per_s"] > 0


def test_an_unknown_agent_is_refused_before_anything_runs(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'bench.sqlite3'}")
    migrate(env)
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_realtime", "--agent", "no-such-agent"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0 and "unknown agent 'no-such-agent'" in done.stderr
