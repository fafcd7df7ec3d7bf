"""The dialogue solver end to end: the solve_dialogue command with the scripted OpenAI server, its cache (a second
run makes no model call and prints the same numbers), PSRO adding instructions, and bad model replies."""

from __future__ import annotations

import io
import itertools
import json
import re

import pytest
from django.core.management import CommandError, call_command

from agents_app.agents.dialogue import prompts
from agents_app.agents.dialogue.generation import CachedModel, DictCache
from agents_app.agents.dialogue.policy import validate_policy
from agents_app.models import DialogueGeneration, SolverRun
from gameplay.engines import registry
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401  (a fixture)
from tests.support.openai_server import ScriptedReply, scripted_openai_server
from tests.support.tiny_dialogue import TinyDialogueGame, TinyJudgedGame

pytestmark = pytest.mark.django_db

_MOVES = re.compile(r"^- ([^:\s]+(?::[^:\s]+)*): ", re.MULTILINE)
NEW_TONES = (["angry", "relaxed", "Loud!", "calm"], ["enthusiastic", "angry"], ["sycophantic", "curious"])


def _user_text(body) -> str:
    return "\n".join(m.get("content") or "" for m in body["messages"] if m.get("role") == "user")


def scripted_model():
    """A model that cycles through the moves it is offered (accepting when it may) and proposes new tones."""
    turns, proposals = itertools.count(), itertools.count()

    def reply(body):
        text = _user_text(body)
        if "JSON list" in text:
            return ScriptedReply.text(json.dumps(NEW_TONES[next(proposals) % len(NEW_TONES)]))
        moves = _MOVES.findall(text.split("Your legal moves", 1)[-1])
        n = next(turns)
        move = "accept" if "accept" in moves and n % 2 else moves[n % len(moves)]
        return ScriptedReply.text({"move": move, "message": f"Message {n} about {move}."})

    return reply


@pytest.fixture
def tiny_game(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "tiny_dialogue", TinyDialogueGame)
    return "tiny_dialogue"


def _solve(*args: str) -> str:
    out = io.StringIO()
    call_command("solve_dialogue", *args, stdout=out)
    return out.getvalue()


def _numbers(output: str) -> list[str]:
    """The lines that must repeat exactly (not the run id, the call counts or the time)."""
    return [line for line in output.splitlines() if not line.startswith(("solver run", "model calls"))]


GAMES = ["tiny_dialogue"] + (["fruit_trading"] if "fruit_trading" in registry.GAMES else [])


@pytest.mark.parametrize("game", GAMES)
def test_solve_dialogue_cfr_prints_equilibrium_and_reruns_from_cache(game, tiny_game):
    with scripted_openai_server(scripted_model()) as server:
        llm_config("solver-model", server.base_url)
        args = ["--game", game, "--solver", "cfr", "--agent", "solver-model", "--depth", "2", "--llm-seeds", "2",
                "--init-states", "1", "--iterations", "50", "--seed", "0"]
        first = _solve(*args)
        sent = len(server.requests)
        second = _solve(*args)
        assert len(server.requests) == sent  # nothing new was asked
    assert sent > 0
    assert "equilibrium" in first and "CFR gain:" in first and "NashConv:" in first
    assert "Player 1, message 1:" in first
    assert _numbers(first) == _numbers(second)
    runs = list(SolverRun.objects.order_by("id"))
    assert [r.status for r in runs] == ["done", "done"]
    assert runs[0].model_calls == sent and runs[1].model_calls == 0 and runs[1].cache_hits > 0
    assert runs[0].result == runs[1].result | {"timing": runs[0].result["timing"]}
    validate_policy(runs[0].result["policy"])
    assert DialogueGeneration.objects.count() == sent


def test_solve_dialogue_json(tiny_game):
    with scripted_openai_server(scripted_model()) as server:
        llm_config("solver-model", server.base_url)
        out = _solve("--game", tiny_game, "--agent", "solver-model", "--iterations", "10", "--json")
    data = json.loads(out)
    assert data["status"] == "done" and data["result"]["nash_conv"] >= 0
    assert set(data["result"]["cfr_gain"]) >= {"seats", "mean"}


@pytest.mark.parametrize("game", GAMES)
def test_psro_adds_new_instructions(game, tiny_game):
    with scripted_openai_server(scripted_model()) as server:
        llm_config("solver-model", server.base_url)
        args = ("--game", game, "--solver", "psro", "--agent", "solver-model", "--depth", "2",
                "--llm-seeds", "1", "--psro-iterations", "3", "--instruction-set", "tone")
        out = _solve(*args)
        sent = len(server.requests)
        again = _solve(*args)
        assert len(server.requests) == sent and _numbers(again) == _numbers(out)  # all from the cache
    history = SolverRun.objects.order_by("id").first().result["psro_history"]
    added = [step["added"] for step in history if step["added"]]
    assert len(history) == 4 and len(added) == 3 and len(set(added)) == 3
    assert all(a not in ("calm", "assertive", "submissive", "any") for a in added)
    for name in added:
        assert f"-> added {name}" in out
    assert history[-1]["instructions"][-3:] == added
    assert "PSRO iteration 2:" in out and "equilibrium:" in out
    assert any("Loud!" in p for p in history[0]["problems"])  # an invalid proposal is refused and said why


def test_bad_replies_fall_back_and_are_recorded(tiny_game):
    bad = itertools.cycle([
        ScriptedReply.text("not json at all"),
        ScriptedReply.text({"move": "fly", "message": "Off we go."}),
        ScriptedReply.error(500),
        ScriptedReply.text({"move": "talk"}),
    ])
    with scripted_openai_server(lambda body: next(bad)) as server:
        llm_config("solver-model", server.base_url)
        out = _solve("--game", tiny_game, "--agent", "solver-model", "--iterations", "5")
    run = SolverRun.objects.get()
    assert run.status == "done", run.error
    assert run.result["fallbacks"] and "NashConv:" in out
    assert any(call["error"] for call in run.result["failed_calls"])


def test_endpoint_down_does_not_crash(tiny_game):
    llm_config("solver-model", "http://127.0.0.1:9/v1")  # nothing listens on the discard port
    out = _solve("--game", tiny_game, "--agent", "solver-model", "--iterations", "5", "--depth", "1")
    run = SolverRun.objects.get()
    assert run.status == "done"
    assert all("unreachable" in reason for _, reason in run.result["fallbacks"])
    assert run.model_calls == 5  # then the model is taken for down: the other turns fall back without asking
    assert len(run.result["fallbacks"]) == 4 * 2
    assert run.result["failed_calls"] and DialogueGeneration.objects.count() == 0
    assert "NashConv:" in out


def test_command_refuses_unknown_things(tiny_game):
    with pytest.raises(CommandError, match="no LLM agent configuration"):
        _solve("--game", tiny_game, "--agent", "nobody")
    llm_config("solver-model", "http://127.0.0.1:9/v1")
    with pytest.raises(CommandError, match="no instruction set"):
        _solve("--game", tiny_game, "--agent", "solver-model", "--instruction-set", "colours")
    with pytest.raises(CommandError, match="not a dialogue game"):
        _solve("--game", "santorini", "--agent", "solver-model")


def test_turn_correction_then_fallback_message():
    replies = iter(['{"move": "fly", "message": "Hello there."}', "still not json"])
    model = CachedModel("m", lambda messages, purpose, seed: (next(replies), []), DictCache())
    turn = model.turn([{"role": "user", "content": "x"}], ["talk", "accept"], 0)
    assert (turn.move, turn.message) == ("talk", "Hello there.") and turn.fallback_reason
    assert model.stats.model_calls == 2


def test_parse_turn_reply_errors():
    assert prompts.parse_turn_reply('Sure: {"move": "accept", "message": "Deal."}', ["accept"]) == ("accept", "Deal.")
    for text, problem in (("", "empty"), ("[1]", "JSON object"), ('{"message": "x"}', '"move"'),
                          ('{"move": "talk"}', '"message"'), ('{"move": "x", "message": "y"}', "not a legal")):
        with pytest.raises(prompts.ReplyError, match=problem):
            prompts.parse_turn_reply(text, ["talk"])


def test_judged_game_uses_the_judge_model_else_the_rule(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "tiny_judged", TinyJudgedGame)

    def model(body):
        if "impartial judge" in body["messages"][0]["content"]:
            text = _user_text(body)
            # The judge favours whoever argued with pathos (the instruction shapes the message below).
            return ScriptedReply.text({"verdict": "player 1" if "Player 1: pathos" in text else "player 2"})
        instruction = _user_text(body).split("Instruction for your message: ", 1)[1].split("\n", 1)[0]
        return ScriptedReply.text({"move": "talk", "message": instruction.split()[-1].strip(".") + " words"})

    with scripted_openai_server(model) as server:
        llm_config("solver-model", server.base_url)
        llm_config("judge-model", server.base_url, model="judge")
        _solve("--game", "tiny_judged", "--agent", "solver-model", "--judge-agent", "judge-model",
               "--iterations", "200", "--llm-seeds", "1")
        judged = SolverRun.objects.get()
        _solve("--game", "tiny_judged", "--agent", "solver-model", "--iterations", "20", "--llm-seeds", "1")
        by_rule = SolverRun.objects.exclude(pk=judged.pk).get()
    assert judged.result["judge"]["model"] == "judge" and judged.result["judge"]["model_calls"] == 9
    # Seat 0 wins exactly when it argues with pathos: CFR learns it.
    assert judged.result["equilibrium"]["0:0"]["pathos"] > 0.9
    assert by_rule.result["values"] == [0.5, 0.5] and "judge" not in by_rule.result  # every leaf a draw


def test_judge_agent_only_for_judged_games(tiny_game):
    llm_config("solver-model", "http://127.0.0.1:9/v1")
    with pytest.raises(CommandError, match="not judged"):
        _solve("--game", tiny_game, "--agent", "solver-model", "--judge-agent", "solver-model")


def test_solve_dialogue_task(tiny_game, eager_celery):  # noqa: F811
    from agents_app.solver_services import create_solver_run
    from agents_app.tasks import solve_dialogue

    with scripted_openai_server(scripted_model()) as server:
        llm_config("solver-model", server.base_url)
        run = create_solver_run(game_id=tiny_game, agent="solver-model", depth=1, iterations=10)
        assert solve_dialogue.delay(run.pk).get() == "done"
        assert solve_dialogue.delay(run.pk).get() == "skipped"  # a run is solved once
    run.refresh_from_db()
    assert run.status == "done" and run.finished_at and run.result["policy"]["game"] == tiny_game


def test_bench_dialogue_solver_prints_a_row_per_depth(tiny_game):
    out = io.StringIO()
    call_command("bench_dialogue_solver", "--game", tiny_game, "--depths", "1,2", "--iterations", "5", stdout=out)
    rows = [line.split() for line in out.getvalue().splitlines()[2:]]
    assert [row[0] for row in rows] == ["1", "2"]
    # every decision generates 4 tones x 2 LLM seeds turns (a fresh cache per depth); depth 2 adds a decision after
    # each depth-1 turn that did not end the game
    assert [int(row[2]) for row in rows][0] == 1 and 1 < int(rows[1][2]) <= 9
    assert all(int(row[5]) == 8 * int(row[2]) for row in rows)
