"""A preflight that measures (issue 42, deliverable 3): check_agent NAME --game G plays a few decisions with the stored
configuration, prints and stores what they cost, and a configuration measured slower than its decision deadline is
refused by tournaments, protocols and studies unless they are told to go on anyway."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agents_app import services as agent_services
from agents_app.models import AgentConfig, Tournament
from agents_app.protocols import schema
from agents_app.protocols import services as protocol_services
from agents_app.tournaments import services as tournament_services
from gameplay.models import Match
from gameplay.studies.models import Study
from gameplay.studies.presets import PresetError, load_preset
from tests.agents_app.check_agent_support import run as check
from tests.agents_app.llm_match_support import is_move_request, legal_reply, llm_config
from tests.support.openai_server import ScriptedReply, scripted_openai_server

pytestmark = pytest.mark.django_db

PROBE_KEYS = {"json_schema", "schema_style", "json_mode", "logprobs", "images", "context_tokens", "tokenizer"}
DEADLINE, DELAY = 0.3, 0.6  # the slow model answers a move after twice its configuration's deadline
TOO_SLOW = "too slow for santorini: its measured p95 think time"


def model(*, move_delay: float = 0.0):
    """Answers the probe at once (JSON mode, logprobs, images) and every move with a legal id after ``move_delay``."""

    def reply(body):
        if is_move_request(body):
            return legal_reply(body, delay=move_delay)
        if body.get("response_format"):
            return ScriptedReply.text({"ok": True})
        return ScriptedReply(content="yes")

    return reply


@pytest.fixture(autouse=True)
def fresh_verdicts(monkeypatch):
    monkeypatch.setattr(agent_services, "_readiness", {})


# --- measuring -------------------------------------------------------------------------------------------------


def test_check_agent_measures_hive_prints_it_and_stores_it_beside_the_probe():
    with scripted_openai_server(model(), context_tokens=32768) as server:
        config = llm_config("measured", server.base_url)
        # An earlier measurement of another game, which this one must keep.
        AgentConfig.objects.filter(pk=config.pk).update(capabilities={"measured": {"santorini": {"think_p95_s": 1}}})
        code, out, _ = check("measured", "--game", "hive", "--decisions", "3", "--seed", "4")
        moves = [r for r in server.requests if is_move_request(r.body)]
    assert code == 0 and "ready to play" in out
    assert "measured on hive: 3 decisions in 1 match(es), seed 4" in out
    assert "valid at the first reply 100%, corrected 0%, fallback 0%" in out
    assert re.search(r"think time: p50 \d+\.\d{3} s, p95 \d+\.\d{3} s; deadline 30 s", out)
    largest = int(re.search(r"largest prompt: (\d+) tokens; context: 32768 tokens", out).group(1))
    assert len(moves) == 3
    assert largest > 100  # the server's count of the biggest move prompt, not the probe's small ones
    capabilities = AgentConfig.objects.get(name="measured").capabilities
    assert set(capabilities) >= PROBE_KEYS and capabilities["context_tokens"] == 32768
    assert capabilities["measured"]["santorini"] == {"think_p95_s": 1}  # the other game's measurement is kept
    hive = capabilities["measured"]["hive"]
    assert hive["decisions"] == 3 and hive["valid_first"] == 1.0 and hive["fallback"] == 0.0
    assert hive["deadline_s"] == 30.0 and hive["context_tokens"] == 32768 and hive["largest_prompt_tokens"] == largest
    assert 0 <= hive["think_p50_s"] <= hive["think_p95_s"] < 30 and hive["measured_at"]


def test_a_text_action_game_is_measured_and_a_later_probe_keeps_the_measurement():
    with scripted_openai_server(model()) as server:
        llm_config("talker", server.base_url)
        code, out, _ = check("talker", "--game", "fruit_trading", "--decisions", "2", "--json")
        report = json.loads(out)
        texts = [r.body for r in server.requests if is_move_request(r.body)]
        assert check("talker")[0] == 0  # probed again, without measuring
    assert code == 0 and report["ready"] is True and report["game"] == "fruit_trading"
    measured = report["measured"]
    assert measured["decisions"] == 2 and measured["valid_first"] == 1.0
    assert measured["context_tokens"] is None  # the server does not say: the text output says "unknown"
    # An offer is chosen part by part (propose, what to give, what to get): three requests a decision, the last one
    # asking for the open-ended action's text.
    assert len(texts) == 6 and all("Open-ended actions" in json.dumps(body) for body in texts[2::3])
    capabilities = AgentConfig.objects.get(name="talker").capabilities
    assert set(capabilities) >= PROBE_KEYS
    assert capabilities["measured"]["fruit_trading"] == measured  # the second probe did not wipe it


def test_the_text_output_says_when_the_context_is_unknown():
    with scripted_openai_server(model()) as server:
        llm_config("talker", server.base_url)
        code, out, _ = check("talker", "--game", "fruit_trading", "--decisions", "1")
    assert code == 0 and re.search(r"largest prompt: \d+ tokens; context: unknown", out)


# --- too slow: measured, then refused everywhere unless told to go on ------------------------------------------


def slow_config(base_url: str) -> None:
    llm_config("slowpoke", base_url)
    # Below the admin's 1 s minimum, so that a slow decision costs the test a third of a second, not seconds.
    AgentConfig.objects.filter(name="slowpoke").update(decision_deadline_s=DEADLINE)


@pytest.fixture
def slow_agent():
    """'slowpoke': a configuration whose model answers moves after 0.6 s, with a deadline of 0.3 s, measured on
    Santorini by check_agent (which exits 2 and says why)."""
    with scripted_openai_server(model(move_delay=DELAY)) as server:
        slow_config(server.base_url)
        code, out, err = check("slowpoke", "--game", "santorini", "--decisions", "2")
    assert code == 2, out + err
    assert "too slow: the p95 think time" in out and "exceeds the decision deadline of 0.3 s on santorini" in out
    assert "fallback 100%" in out and "ready to play" not in out
    assert "agent 'slowpoke' is too slow for santorini" in err
    measured = AgentConfig.objects.get(name="slowpoke").capabilities["measured"]["santorini"]
    assert measured["think_p95_s"] > DEADLINE == measured["deadline_s"]
    return measured


def test_the_preflight_refuses_the_slow_agent_naming_p95_deadline_and_the_way_on(slow_agent):
    with pytest.raises(agent_services.AgentNotReady) as refused:
        agent_services.preflight("slowpoke", "santorini")
    message = str(refused.value)
    assert TOO_SLOW in message and f"{slow_agent['think_p95_s']:.3f} s" in message
    assert "decision deadline of 0.3 s" in message and "--allow-slow" in message and "allow_slow_agents" in message
    agent_services.preflight("slowpoke", "santorini", allow_slow=True)
    agent_services.preflight("slowpoke", "hive")  # never measured there: nothing to say
    agent_services.preflight("slowpoke")  # no game, no measurement to compare


def test_the_current_deadline_is_what_the_measurement_is_compared_with(slow_agent):
    config = AgentConfig.objects.get(name="slowpoke")
    config.decision_deadline_s = 30
    config.save()
    agent_services.preflight("slowpoke", "santorini")  # p95 of ~0.3 s is well within 30 s
    config.decision_deadline_s = slow_agent["think_p95_s"] / 2
    config.save()
    with pytest.raises(agent_services.AgentNotReady, match=TOO_SLOW):
        agent_services.preflight("slowpoke", "santorini")


def test_a_tournament_refuses_the_slow_agent_and_goes_on_when_told(slow_agent, monkeypatch):
    with pytest.raises(tournament_services.TournamentError) as refused:
        tournament_services.create_or_resume("santorini", ["slowpoke", "random"], 1, 0)
    assert "agent 'slowpoke' cannot play" in str(refused.value) and TOO_SLOW in str(refused.value)
    assert not Tournament.objects.exists()
    with pytest.raises(CommandError, match=TOO_SLOW) as command_refused:
        call_command("run_tournament", "--game", "santorini", "--agents", "slowpoke,random", "--no-wait",
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert command_refused.value.returncode == 2 and not Tournament.objects.exists()
    # Told to go on: created, and queued by the command (not played here: every slow move would take 0.3 s).
    monkeypatch.setattr("agents_app.tournaments.tasks.schedule", lambda tournament, **kwargs: 0)
    out = io.StringIO()
    call_command("run_tournament", "--game", "santorini", "--agents", "slowpoke,random", "--no-wait",
                 "--allow-slow", stdout=out, stderr=io.StringIO())
    assert "Queued 0 matches" in out.getvalue()
    assert Tournament.objects.get().entries.count() == 2  # the command's: two matches per pair by default
    tournament = tournament_services.create_or_resume("santorini", ["slowpoke", "random"], 1, 0, allow_slow=True)
    assert Tournament.objects.count() == 2 and tournament.entries.count() == 1


def protocol(tmp_path, **changes):
    data = {"format": 1, "name": "slow", "version": "1", "agents": ["slowpoke", "random"],
            "games": [{"game": "santorini"}], "matches_per_pair": 1, "seeds": [0],
            "output": {"directory": str(tmp_path / "out")}} | changes
    path = tmp_path / "protocol.json"
    path.write_text(json.dumps(data))
    return path


def test_a_protocol_refuses_the_slow_agent_unless_the_file_or_the_command_allows_it(slow_agent, tmp_path,
                                                                                     monkeypatch):
    with pytest.raises(schema.ProtocolError) as refused:
        protocol_services.prepare(schema.load(protocol(tmp_path)))
    assert TOO_SLOW in str(refused.value) and not Tournament.objects.exists()
    with pytest.raises(CommandError, match=TOO_SLOW) as command_refused:
        call_command("run_protocol", str(protocol(tmp_path)), "--no-wait", stdout=io.StringIO(),
                     stderr=io.StringIO())
    assert command_refused.value.returncode == 2
    monkeypatch.setattr(protocol_services, "schedule", lambda planned, **kwargs: 0)
    out = io.StringIO()
    call_command("run_protocol", str(protocol(tmp_path)), "--no-wait", "--allow-slow", stdout=out,
                 stderr=io.StringIO())
    assert "1 tournaments" in out.getvalue() and "Queued 0 matches" in out.getvalue()
    planned = protocol_services.prepare(schema.load(protocol(tmp_path, allow_slow_agents=True)))
    assert [p.agents for p in planned] == [("slowpoke", "random")]
    with pytest.raises(schema.ProtocolError, match="allow_slow_agents: true or false"):
        schema.load(protocol(tmp_path, allow_slow_agents="yes"))


def study_preset(**changes):
    return {
        "slug": "slow-study", "title": "Slow", "game_id": "santorini", "rounds": [{}],
        "consent_text": "You agree.", "instructions": "Play.",
        "conditions": [{"key": "slow", "label": "Slow",
                        "seats": [{"kind": "participant"}, {"kind": "agent", "agent": "slowpoke"}]}],
    } | changes


def test_a_study_condition_refuses_the_slow_agent_unless_the_study_allows_slow_agents(slow_agent):
    with pytest.raises(PresetError, match=f"cannot play: slowpoke is {TOO_SLOW}"):
        load_preset(study_preset())
    assert not Study.objects.exists()
    study, created = load_preset(study_preset(allow_slow_agents=True))
    assert created and study.allow_slow_agents and study.conditions.count() == 1
    # The fallback agent of a study is checked the same way.
    fallback = study_preset(slug="slow-fallback", pairing_fallback_agent="slowpoke", conditions=[
        {"key": "pair", "label": "Pair", "seats": [{"kind": "participant"}, {"kind": "participant"}]}])
    with pytest.raises(PresetError, match=f"Agent 'slowpoke' cannot play: slowpoke is {TOO_SLOW}"):
        load_preset(fallback)
    assert load_preset({**fallback, "allow_slow_agents": True})[1]


def test_play_match_refuses_the_slow_agent_and_plays_when_told(slow_agent):
    with pytest.raises(CommandError, match=TOO_SLOW) as refused:
        call_command("play_match", "--game", "santorini", "--agents", "slowpoke,random", stdout=io.StringIO())
    assert refused.value.returncode == 2 and not Match.objects.exists()
    out = io.StringIO()  # the model's server is gone by now: every slow move falls back at once
    call_command("play_match", "--game", "santorini", "--agents", "slowpoke,random", "--allow-slow",
                 "--options", '{"max_turns": 2}', "--json", stdout=out)
    assert json.loads(out.getvalue())["status"] == "finished" and Match.objects.count() == 1


def test_the_new_match_form_refuses_the_slow_agent(client, slow_agent):
    response = client.post("/games/santorini/new/", {"seat_0": "you", "seat_1": "agent:slowpoke", "seed": "3"})
    assert response.status_code == 200 and TOO_SLOW in response.content.decode()
    assert not Match.objects.exists()


def test_a_kept_verdict_is_renewed_by_a_new_measurement():
    with scripted_openai_server(model(move_delay=DELAY)) as server:
        slow_config(server.base_url)
        assert agent_services.readiness_problem("slowpoke", "santorini") is None  # never measured: kept a minute
        assert check("slowpoke", "--game", "santorini", "--decisions", "1")[0] == 2
    assert TOO_SLOW in agent_services.readiness_problem("slowpoke", "santorini")
    assert agent_services.readiness_problem("slowpoke", "santorini", allow_slow=True) is None
