"""The realtime load benchmark (issue 14.3): its reading of the socket frames, its audit against the event log,
its timing of each move's delivery to every other seat (issue 39, point 6), and real runs against a daphne
subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.bench.audit import LoggedAction, Send, audit
from gameplay.bench.deliveries import SeatTimeline, resolve
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
def test_a_frame_tells_which_version_the_seats_own_newest_move_became():
    """Where seats act at once, another seat's move can reach a socket before its own: the move list says which
    version its own move became."""
    match = services.create_match("pit", [HUMAN, HUMAN, HUMAN], seed=5)
    assert parse_seat_frame(_fragments(match.pk, 0)).own_move == 0  # a move list, none of its moves yet
    for version, seat in enumerate((1, 0, 2)):
        state = selectors.state_of(selectors.match_by_id(match.pk))
        services.submit_action(match.pk, seat, state.legal_actions(seat)[0].id, expected_version=version)
    frames = [parse_seat_frame(_fragments(match.pk, seat)) for seat in range(3)]
    assert [f.version for f in frames] == [3, 3, 3]
    assert [f.own_move for f in frames] == [2, 1, 3]


def test_a_frame_without_a_move_list_tells_no_own_move():
    frame = parse_seat_frame('<div id="board" data-version="4"></div>')
    assert (frame.version, frame.own_move) == (4, None)


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


def test_a_move_applied_at_a_later_version_is_found_there():
    """Pit: seat 1's view at version 0 was overtaken by seat 0's move; its own move became version 2."""
    first = _send(0, 0, "offer:1:corn")
    second = Send(1, 1, "pass", 0, sent_at=0.0, measured=True, acked_at=0.02, applied_version=2)
    logged = [LoggedAction(1, 0, "offer:1:corn", 1), LoggedAction(1, 1, "pass", 2)]
    assert audit([first, second], logged) == {"lost": 0, "duplicated": 0, "version_gaps": 0,
                                              "applied_unacknowledged": 0}
    # Read as the next version (the turn-based reading), the same log would say it was lost and one was extra.
    misread = Send(1, 1, "pass", 0, sent_at=0.0, measured=True, acked_at=0.02, applied_version=1)
    assert audit([first, misread], logged)["lost"] == 1


def test_moves_played_before_the_clients_joined_answer_for_nothing():
    sends = [_send(40, 0, "x"), _send(41, 1, "y")]
    logged = [LoggedAction(1, v % 2, f"early-{v}", v) for v in range(1, 41)]
    logged += [LoggedAction(1, 0, "x", 41), LoggedAction(1, 1, "y", 42)]
    assert audit(sends, logged, start_versions={1: 40}) == {
        "lost": 0, "duplicated": 0, "version_gaps": 0, "applied_unacknowledged": 0
    }
    assert audit(sends, logged)["duplicated"] == 40  # without the start: forty moves nobody sent


def test_each_move_reaches_each_other_seat_when_its_socket_first_shows_its_version_or_a_later_one():
    timelines = {seat: SeatTimeline() for seat in range(3)}
    for seat, version, at in [(0, 5, 0.0), (1, 5, 0.0), (2, 5, 0.0), (1, 7, 1.30), (0, 6, 1.10), (2, 6, 1.25),
                              (2, 7, 1.40), (0, 7, 1.35)]:
        timelines[seat].saw(version, at)
    timelines[1].saw(6, 1.5)  # older than what seat 1 already showed: not a new version for it
    move = Send(1, 0, "a", 5, sent_at=1.0, measured=True, acked_at=1.1, applied_version=6)
    unacked = Send(1, 2, "b", 5, sent_at=1.0, measured=True)
    assert resolve([move, unacked], timelines) == 0
    # Seat 1 skipped version 6 and first showed it within version 7; the mover's own socket is not a delivery.
    assert move.deliveries == {1: 1.30, 2: 1.25}
    assert move.partner_at == 1.25 and unacked.deliveries == {}
    later = Send(1, 1, "c", 7, sent_at=1.6, measured=True, acked_at=1.7, applied_version=8)
    assert resolve([later], timelines) == 2  # nobody else shows version 8 yet


def test_percentiles_are_measured_values_in_order():
    stats = percentiles([float(v) for v in range(1, 101)])
    assert (stats["count"], stats["p50"], stats["p90"], stats["p95"], stats["p99"], stats["max"]) == (
        100, 50.0, 90.0, 95.0, 99.0, 100.0)
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
    for key in ("round_trip_ms", "partner_delivery_ms", "delivery_ms", "all_seats_delivery_ms"):
        stats = result[key]
        assert stats["count"] > 0
        assert 0 < stats["p50"] <= stats["p90"] <= stats["p95"] <= stats["p99"] <= stats["max"] < 10_000
    assert result["delivery_ms"]["count"] == result["moves_applied"]  # two seats: one other seat a move
    assert result["undelivered"] == 0
    assert result["server"]["cpu_seconds"] > 0


@pytest.mark.slow
def test_benchmark_plays_pit_with_three_people_and_times_each_other_seat(tmp_path):
    """Every seat may act at any moment; a move is timed to both other seats, each against the version it became.
    Offers taken first by someone else are refused on arrival (errors, and no lost or repeated move)."""
    env = server_env(f"sqlite:///{tmp_path / 'bench.sqlite3'}")
    migrate(env)
    with daphne_server(env, log_path=tmp_path / "daphne.log") as base:
        command = [
            sys.executable, "manage.py", "bench_realtime", "--game", "pit", "--seats", "3", "--advance", "30",
            "--matches", "2", "--duration", "4", "--warmup", "1", "--pace", "0.3", "--url", base, "--json",
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + (tmp_path / "daphne.log").read_text(errors="replace")[-3000:]
    result = json.loads(done.stdout)
    assert (result["game"], result["seats_per_match"], result["seats"]) == ("pit", 3, 6)
    assert result["moves_applied"] > 0
    assert (result["lost"], result["duplicated"], result["version_gaps"], result["undelivered"]) == (0, 0, 0, 0), result
    assert set(result["error_kinds"]) <= {"error_fragment"}, result  # only refusals of the market's races
    assert result["rejected_moves"] == result["errors"]
    assert result["delivery_ms"]["count"] == 2 * result["moves_applied"]
    assert result["all_seats_delivery_ms"]["count"] == result["moves_applied"]
    first, each, last = (result[k]["p50"] for k in ("partner_delivery_ms", "delivery_ms", "all_seats_delivery_ms"))
    assert first <= each <= last


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
