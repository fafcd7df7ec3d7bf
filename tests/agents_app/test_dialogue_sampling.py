"""The solver's LLM seeds are samples of the model (issue 40): each request carries a sampling seed (OpenAI's
``seed``, recorded by the scripted server) derived from the solve's seed and the LLM seed, at the configured
temperature; a solve whose seeds gave identical turns says so, printed and in its result; a server that refuses the
parameter is asked without it."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from agents_app.agents.dialogue.generation import sample_seed
from agents_app.agents.llm import LLMAgentSettings
from agents_app.agents.llm.client import ChatCaller, make_openai_client
from agents_app.models import SolverRun
from gameplay.engines import registry
from tests.agents_app.dialogue_sampling_support import sampling_model
from tests.agents_app.llm_match_support import llm_config
from tests.support.openai_server import ScriptedReply, scripted_openai_server
from tests.support.tiny_dialogue import TinyDialogueGame

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tiny_game(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "tiny_dialogue", TinyDialogueGame)


def _solve(*args: str) -> str:
    out = io.StringIO()
    call_command("solve_dialogue", "--game", "tiny_dialogue", "--agent", "solver-model", "--depth", "1",
                 "--iterations", "5", *args, stdout=out)
    return out.getvalue()


def test_the_client_sends_the_seed_and_the_scripted_server_records_it():
    with scripted_openai_server(["one", "two"]) as server:
        settings = LLMAgentSettings(name="t", base_url=server.base_url, model="m", api_key_env="", temperature=0.7)
        caller = ChatCaller(make_openai_client(settings, environ={}), settings)
        caller.call([{"role": "user", "content": "hi"}], purpose="move", seed=1234)
        caller.call([{"role": "user", "content": "hi"}], purpose="move")
    assert [r.seed for r in server.requests] == [1234, None]
    assert server.requests[0].body["temperature"] == 0.7
    assert caller.calls[0].details == {"seed": 1234} and caller.calls[1].details is None


def test_each_llm_seed_sends_its_own_seed_at_the_agents_temperature_and_the_samples_differ():
    with scripted_openai_server(sampling_model) as server:
        llm_config("solver-model", server.base_url, temperature=0.8)
        out = _solve("--llm-seeds", "2", "--seed", "3")
        requests = server.requests
    run = SolverRun.objects.get()
    # The root decision: 4 tones x 2 LLM seeds, each pair the same prompt with the two sampling seeds.
    assert len(requests) == 8 and {r.body["temperature"] for r in requests} == {0.8}
    by_prompt: dict[str, list[int]] = {}
    for request in requests:
        by_prompt.setdefault(request.prompt_text, []).append(request.seed)
    assert sorted(map(sorted, by_prompt.values())) == [sorted([sample_seed(3, 0), sample_seed(3, 1)])] * 4
    assert sample_seed(3, 0) != sample_seed(3, 1) != sample_seed(4, 1)
    assert run.result["sampling"] == {"llm_seeds": 2, "temperature": 0.8, "seed_parameter": "sent"}
    assert run.result["tree"]["identical_samples"] == 0 and run.result["warnings"] == []
    assert "WARNING" not in out and "sampling: 2 LLM seed(s) at temperature 0.8, sampling seed sent" in out


def test_identical_samples_are_warned_about_in_the_output_and_the_result():
    with scripted_openai_server(sampling_model) as server:
        llm_config("solver-model", server.base_url, temperature=0.0)
        out = _solve("--llm-seeds", "2")
    run = SolverRun.objects.get()
    assert run.result["tree"]["sampled_chance_nodes"] == 4 and run.result["tree"]["identical_samples"] == 4
    [warning] = run.result["warnings"]
    assert "the 2 LLM seeds gave identical turns at 4 of 4 chance nodes (temperature 0" in warning
    assert f"WARNING: {warning}" in out


def test_the_solvers_temperature_overrides_the_agents_and_is_part_of_the_cache_key():
    with scripted_openai_server(sampling_model) as server:
        llm_config("solver-model", server.base_url, temperature=0.0)
        cold = _solve("--llm-seeds", "2")
        asked = len(server.requests)
        hot = _solve("--llm-seeds", "2", "--temperature", "1.2")
        # Replies sampled at temperature 0 do not answer a request at 1.2: all asked again, at 1.2.
        assert len(server.requests) == 2 * asked
        assert {r.body["temperature"] for r in server.requests[asked:]} == {1.2}
    cold_run, hot_run = SolverRun.objects.order_by("id")
    assert (cold_run.temperature, hot_run.temperature) == (None, 1.2)
    assert hot_run.result["sampling"]["temperature"] == 1.2 and not hot_run.result["warnings"]
    assert "WARNING" in cold and "WARNING" not in hot


def test_another_solve_seed_asks_for_other_samples():
    with scripted_openai_server(sampling_model) as server:
        llm_config("solver-model", server.base_url, temperature=0.7)
        _solve("--llm-seeds", "1", "--seed", "0")
        _solve("--llm-seeds", "1", "--seed", "1")
    first, second = server.requests[:4], server.requests[4:]
    assert len(second) == 4  # nothing of seed 0's replies was reused
    assert {r.seed for r in first} == {sample_seed(0, 0)} and {r.seed for r in second} == {sample_seed(1, 0)}


def test_a_server_refusing_the_seed_parameter_is_asked_without_it():
    def no_seeds(body):
        if "seed" in body:
            return ScriptedReply.error(400, "Unrecognized request argument supplied: seed")
        return sampling_model(body)

    with scripted_openai_server(no_seeds) as server:
        llm_config("solver-model", server.base_url, temperature=0.7)
        out = _solve("--llm-seeds", "2", "--json")
    run = SolverRun.objects.get()
    assert run.status == "done" and not run.result["fallbacks"]
    # Refused once, then every request went without it.
    assert [r.seed is not None for r in server.requests] == [True] + [False] * 8
    assert run.result["sampling"]["seed_parameter"].startswith("refused by the endpoint:")
    assert "HTTP 400" in run.result["sampling"]["seed_parameter"]
    assert json.loads(out)["result"]["sampling"] == run.result["sampling"]
