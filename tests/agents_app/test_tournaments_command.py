"""The run_tournament command (eager Celery): it runs a tournament with a progress bar and prints the results, a
second run resumes it without replaying; it exits 1 when a match fails (a rerun retries only that match), 2 on bad
parameters, and with --no-wait queues the matches and returns."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from agents_app import turns
from agents_app.models import Tournament, TournamentMatch
from agents_app.tournaments import selectors
from gameplay.models import Match
from tests.agents_app.tournaments_support import (  # noqa: F401 (tournament_agents is an autouse fixture)
    Status,
    match_ids,
    tournament_agents,
)

pytestmark = pytest.mark.django_db


def call(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("run_tournament", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


ARGS = ("--game", "santorini", "--agents", "random,random-b", "--matches", "2", "--seed", "4")


def test_command_runs_the_tournament_with_a_progress_bar_and_results():
    out, err = call(*ARGS)
    tournament = Tournament.objects.get()
    assert f"Tournament #{tournament.pk}: santorini, random, random-b; 2 per pair, 2 matches of 2 seats, seed 4" in out
    assert f"Page: /tournaments/{tournament.pk}/" in out
    assert "Resuming" not in out
    bar = [line for line in err.splitlines() if line.startswith("[")]
    assert bar == [
        "[------------------------------] 0/2 matches finished, 0 failed",
        "[###############---------------] 1/2 matches finished, 0 failed",
        "[##############################] 2/2 matches finished, 0 failed",
    ]
    assert "agent     matches  wins  draws  losses   points" in out
    results = {r.agent: r for r in selectors.results(tournament).agents}
    for name in ("random", "random-b"):
        r = results[name]
        assert f"{name:<8}  {2:>7}  {r.wins:>4}  {0:>5}  {r.losses:>6}  {r.points:>7g}" in out
    assert "random vs random-b: 2 matches," in out
    assert tournament.entries.filter(status=Status.FINISHED).count() == 2

    before = match_ids(tournament)
    out, err = call(*ARGS)
    assert "Resuming: 2 of 2 matches already finished." in out
    assert match_ids(tournament) == before and Match.objects.count() == 2
    assert Tournament.objects.count() == 1


def test_command_exits_1_when_a_match_fails(monkeypatch):
    real = turns.play_pending_turns

    def broken_for_one(match_id):
        if Match.objects.get(pk=match_id).seats.get(index=0).agent_name == "random-b":
            raise RuntimeError("engine exploded")
        return real(match_id)

    monkeypatch.setattr(turns, "play_pending_turns", broken_for_one)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 of 2 matches failed") as failure:
        call_command("run_tournament", *ARGS, stdout=out, stderr=err)
    assert failure.value.returncode == 1
    assert "[###############---------------] 1/2 matches finished, 1 failed" in err.getvalue()
    failed = TournamentMatch.objects.get(status=Status.FAILED)
    assert failed.index == 1 and failed.error == "RuntimeError: engine exploded"

    monkeypatch.setattr(turns, "play_pending_turns", real)
    out, _ = call(*ARGS)  # the rerun retries the failed match only, and succeeds
    assert "Resuming: 1 of 2 matches already finished." in out
    assert TournamentMatch.objects.filter(status=Status.FINISHED).count() == 2


def test_command_refuses_bad_parameters_with_exit_code_2():
    with pytest.raises(CommandError, match="at least two agents") as failure:
        call("--game", "santorini", "--agents", "random", "--matches", "1")
    assert failure.value.returncode == 2
    with pytest.raises(CommandError, match="--options must be a JSON object"):
        call(*ARGS, "--options", "{nope")


def test_command_no_wait_queues_and_returns():
    out, _ = call(*ARGS, "--no-wait")
    assert "Queued 2 matches; not waiting" in out
    assert "agent     matches" not in out
