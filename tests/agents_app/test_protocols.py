"""Benchmark protocol files: checked before anything runs, run as tournaments (resumable, never a match twice) and
reported with ratings, per-category scores and each model's calls, tokens and cost."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.models import AgentCall, AgentConfig, Tournament, TournamentMatch
from agents_app.protocols import schema, services
from agents_app.protocols.report import category_scores
from agents_app.tournaments import services as tournament_services
from gameplay.models import Match
from tests.agents_app.llm_match_support import eager_celery  # noqa: F401 (a fixture)
from tests.agents_app.table_model import TableModel
from tests.support.openai_server import scripted_openai_server

ROOT = Path(__file__).resolve().parents[2]
PRICES = {"scripted-model": {"prompt_per_million": 2.5, "completion_per_million": 10.0}}


def protocol_file(tmp_path: Path, base_url: str, **changes) -> Path:
    data = {
        "format": 1,
        "name": "tiny",
        "version": "1.0",
        "agents": [
            "random",
            {"name": "scripted-llm", "llm": {"base_url": base_url, "model": "scripted-model", "api_key_env": "",
                                             "retries": 1, "http_retries": 0, "timeout_s": 10}},
        ],
        "games": [{"game": "santorini", "options": {"max_turns": 8}}],
        "matches_per_pair": 2,
        "seeds": [1, 2],
        "rating": {"method": "paper", "bootstrap": 50, "seed": 0},
        "prices": PRICES,
        "output": {"directory": str(tmp_path / "out")},
    } | changes
    path = tmp_path / "protocol.json"
    path.write_text(json.dumps(data))
    return path


def test_a_protocol_file_with_problems_is_refused_naming_each_one(tmp_path, monkeypatch):
    monkeypatch.delenv("NO_SUCH_URL", raising=False)
    path = protocol_file(
        tmp_path, "${NO_SUCH_URL}", format=2, colour="blue", seeds=[1, 1],
        games=[{"game": "are_you_the_traitor", "seats": 5, "seating": "AAB"}],
        rating={"method": "elo"},
    )
    with pytest.raises(schema.ProtocolError) as caught:
        schema.load(path)
    problems = "\n".join(caught.value.problems)
    for expected in ("format: this platform reads format 1", "colour: not a protocol field",
                     "seeds: each seed once", "3 letters for 5 seats", "rating.method: one of connected, paper",
                     "${NO_SUCH_URL}: the environment variable is not set"):
        assert expected in problems
    assert "agents[1].llm.base_url: required" in problems  # the empty reference leaves no URL
    assert len(caught.value.problems) == 7


def test_environment_references_fill_in_the_endpoint(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_URL", "http://10.1.2.3:8000/v1")
    protocol = schema.load(protocol_file(tmp_path, "${LAB_URL}"))
    assert protocol.agent("scripted-llm").llm["base_url"] == "http://10.1.2.3:8000/v1"
    monkeypatch.delenv("LAB_URL")
    assert schema.load(protocol_file(tmp_path, "${LAB_URL:-http://127.0.0.1:9/v1}")).agent(
        "scripted-llm").llm["base_url"] == "http://127.0.0.1:9/v1"


def test_the_shipped_gamebench_protocol_is_valid_and_names_the_nine_games():
    protocol = schema.load(ROOT / "fixtures/protocols/gamebench.json")
    assert sorted(g.game for g in protocol.games) == sorted([
        "air_land_sea", "arctic_scavengers", "are_you_the_traitor", "codenames", "hive", "pit", "santorini",
        "two_rooms_and_a_boom", "sea_battle"])
    assert protocol.rating.method == "paper"
    assert {a.model for a in protocol.agents if a.llm} <= set(protocol.prices)


@pytest.mark.django_db
def test_a_stored_agent_with_other_settings_is_refused_not_changed(tmp_path):
    AgentConfig.objects.create(name="scripted-llm", base_url="http://127.0.0.1:9/v1", model="other-model")
    protocol = schema.load(protocol_file(tmp_path, "http://127.0.0.1:9/v1"))
    with pytest.raises(schema.ProtocolError, match="model is 'other-model' there, 'scripted-model' in the file"):
        services.prepare(protocol)
    assert AgentConfig.objects.get(name="scripted-llm").model == "other-model"
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_run_protocol_plays_every_match_reports_and_resumes_without_playing_twice(tmp_path, eager_celery, capsys):  # noqa: F811
    with scripted_openai_server(TableModel()) as server:
        path = protocol_file(tmp_path, server.base_url)
        call_command("run_protocol", str(path))
        first = capsys.readouterr().out
        matches = list(Match.objects.order_by("pk").values_list("pk", flat=True))
        assert len(matches) == 4  # 1 pair x 2 matches x 2 seeds
        assert TournamentMatch.objects.filter(status="finished").count() == 4

        call_command("run_protocol", str(path))  # the same file again: nothing is played twice
        again = capsys.readouterr().out
    assert "Queued 0 matches" in again and "4 already finished" in again
    assert list(Match.objects.order_by("pk").values_list("pk", flat=True)) == matches

    report = json.loads((tmp_path / "out/report.json").read_text())
    calls = AgentCall.objects.filter(agent_name="scripted-llm")
    model = report["models"][0]
    assert model["model"] == "scripted-model" and model["agents"] == ["scripted-llm"]
    assert model["calls"] == calls.count() > 0
    prompt = sum(c.prompt_tokens for c in calls)
    completion = sum(c.completion_tokens for c in calls)
    assert (model["prompt_tokens"], model["completion_tokens"]) == (prompt, completion) and prompt > 0
    assert model["cost"] == pytest.approx((prompt * 2.5 + completion * 10.0) / 1e6)
    assert set(report["ratings"]) == set(report["win_probability"]) == {"overall", "santorini"}
    table = report["win_probability"]["santorini"]
    assert sorted(table["agents"]) == ["random", "scripted-llm"]
    assert table["matrix"][0][1] == pytest.approx(1 - table["matrix"][1][0])
    assert report["provenance"]["rating"]["method"] == "paper"
    assert report["protocol"]["sha256"] == schema.load(path).sha256
    assert set(report["categories"]) == {"abstract_strategy"}
    row = next(line for line in first.splitlines() if line.startswith("| scripted-model "))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:5] == ["scripted-model", "scripted-llm", str(model["calls"]), str(prompt), str(completion)]
    assert cells[6] == f"{model['cost']:.4f}"
    assert "## Ratings: santorini" in first and "## Win probability: santorini (row beats column)" in first
    rows = (tmp_path / "out/matches.csv").read_text().splitlines()
    assert len(rows) == 5 and rows[0].startswith("game,protocol_seed,index,match_seed")


@pytest.mark.django_db
def test_a_failing_protocol_exits_with_the_reasons(tmp_path):
    path = protocol_file(tmp_path, "http://127.0.0.1:9/v1", games=[{"game": "no_such_game"}])
    with pytest.raises(CommandError, match="games\\[0\\] \\(no_such_game\\): unknown game"):
        call_command("run_protocol", str(path))


def test_category_scores_weigh_each_game_of_a_category_the_same():
    scores = {"a": {"hive": 1.0, "santorini": 0.0, "pit": 0.5, "overall": 0.6}, "b": {"pit": 0.25}}
    got = category_scores(scores)
    assert got["abstract_strategy"] == {"a": 0.5}
    assert got["language_communication"] == {"a": 0.5, "b": 0.25}


def test_seating_places_a_pair_on_fixed_seats_and_swaps_them_every_other_match():
    assert tournament_services.pairings(["x", "y"], 2, 5, "AABBB") == [
        ("x", "x", "y", "y", "y"), ("y", "y", "x", "x", "x")]
    assert tournament_services.pairings(["x", "y"], 1, 3) == [("x", "y", "x")]


@pytest.mark.django_db
def test_a_match_whose_worker_process_died_is_queued_again_at_once():
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # its pid names no process any more
    tournament = Tournament.objects.create(key="k", game_id="santorini", agents=["a", "b"], matches_per_pair=2,
                                           seed=1, options={})
    alive = TournamentMatch.objects.create(tournament=tournament, index=0, seat_agents=["a", "b"], seed=1,
                                           status="running", played_by=f"{socket.gethostname()}:{os.getpid()}")
    lost = TournamentMatch.objects.create(tournament=tournament, index=1, seat_agents=["b", "a"], seed=2,
                                          status="running", played_by=f"{socket.gethostname()}:{gone.pid}")
    other_host = TournamentMatch.objects.create(tournament=tournament, index=2, seat_agents=["b", "a"], seed=3,
                                                status="running", played_by=f"elsewhere:{gone.pid}")
    ids = tournament_services.mark_for_scheduling(tournament)
    assert ids == [lost.pk]
    assert {alive.pk, other_host.pk}.isdisjoint(ids)


class OtherRandom(RandomAgent):
    name = "random-b"


@pytest.mark.django_db
def test_run_tournament_seats_a_pair_by_a_seating_pattern(eager_celery, monkeypatch, capsys):  # noqa: F811
    monkeypatch.setitem(registry.AGENTS, OtherRandom.name, OtherRandom)
    args = ["run_tournament", "--game", "are_you_the_traitor", "--agents", "random,random-b", "--seats", "5",
            "--matches", "2", "--options", '{"gamebench_fixed_roles": true, "gamebench_team_win": true}']
    with pytest.raises(CommandError, match="seating: one letter A or B per seat \\(5 seats\\), not 'AAB'"):
        call_command(*args, "--seating", "AAB")
    call_command(*args, "--seating", "AABBB")
    entries = TournamentMatch.objects.order_by("index")
    assert [e.seat_agents for e in entries] == [["random"] * 2 + ["random-b"] * 3, ["random-b"] * 2 + ["random"] * 3]
    assert all(e.status == "finished" for e in entries)


@pytest.mark.django_db
def test_watching_a_run_requeues_only_lost_running_matches_never_long_queued_ones():
    from datetime import timedelta

    from django.utils import timezone

    tournament = Tournament.objects.create(key="k", game_id="santorini", agents=["a", "b"], matches_per_pair=2,
                                           seed=1, options={})
    waiting = TournamentMatch.objects.create(tournament=tournament, index=0, seat_agents=["a", "b"], seed=1,
                                             status="queued")
    quiet = TournamentMatch.objects.create(tournament=tournament, index=1, seat_agents=["b", "a"], seed=2,
                                           status="running", played_by="elsewhere:1")
    long_ago = timezone.now() - timedelta(hours=1)
    TournamentMatch.objects.filter(pk__in=[waiting.pk, quiet.pk]).update(updated_at=long_ago)
    # A queue longer than stale_after: the waiting entry is in the broker, not lost; the quiet running one is.
    assert tournament_services.mark_for_scheduling(tournament, lost_only=True) == [quiet.pk]
    TournamentMatch.objects.filter(pk__in=[waiting.pk, quiet.pk]).update(updated_at=long_ago, status="queued")
    # Starting a run again (the broker may have been flushed) takes every entry that has waited too long.
    assert tournament_services.mark_for_scheduling(tournament) == [waiting.pk, quiet.pk]
