"""Agents see a seat, never a state: no module of agents_app receives or obtains the State of a live match.

The match layer hands agents_app a seat's ``SeatView`` and a refusal checker (gameplay.reads.agent_seats); the State
stays
in gameplay. Two checks hold that line:

1. Static, over every module of agents_app (parsed with ``ast``, as tests/test_boundaries.py walks imports): nothing
   imports the readers of a match's state (``gameplay.reads.selectors.state_of`` and friends), reads a ``.state``
   attribute (``Match.state``, the stored state) or rebuilds a state from JSON. Offline harnesses that referee games
   of their own (a solver's game tree, a simulated evaluation round) create fresh states and are listed below with
   the reason; they never touch a match.
2. At run time: agent turns, chat answers and a judge's verdict are played through the platform's own tasks while a
   profiler looks at every function of agents_app as it returns; none may hold a State in its locals.
"""

from __future__ import annotations

import ast
import sys
import threading
from pathlib import Path

import pytest

from gameplay.engines.api import State

ROOT = Path(__file__).resolve().parents[1]
AGENTS_APP = ROOT / "agents_app"

# Names whose import hands over a live match's state (or a way to rebuild it).
STATE_READERS = {
    "gameplay.reads.selectors": {"state_of", "replay_frames", "final_measures", "final_teams"},
    "gameplay.engines.api": {"State"},
}
# Offline harnesses: each referees games it creates itself, never a match (so a State of its own is fine there).
OFFLINE_HARNESSES = {
    "agents_app/agents/dialogue/tree.py": "the dialogue solver expands a game tree of fresh games (seed 004's CFR)",
    "agents_app/evaluations/arena.py": "measurements play fresh games between built-in agents in one process",
    "agents_app/evaluations/decision_bench.py": "bench_agent and check_agent --game time an agent's decisions in fresh "
                                                "games of their own, the other seats played at random",
}


def agents_app_modules() -> list[Path]:
    return sorted(p for p in AGENTS_APP.rglob("*.py") if "migrations" not in p.parts)


def state_reads(path: Path) -> list[str]:
    """What in this file reads or imports a match's state: "line: what"."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in STATE_READERS:
            for alias in node.names:
                if alias.name in STATE_READERS[node.module]:
                    found.append(f"{node.lineno}: imports {node.module}.{alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr in ("state", "state_from_json"):
            found.append(f"{node.lineno}: reads .{node.attr}")
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name == "gameplay.reads.selectors"]
    return found


def test_no_agents_app_module_imports_or_reads_a_match_state():
    problems = {}
    for path in agents_app_modules():
        relative = path.relative_to(ROOT).as_posix()
        if relative in OFFLINE_HARNESSES:
            continue
        reads = state_reads(path)
        if reads:
            problems[relative] = reads
    assert problems == {}, f"agents_app modules that reach a match's state: {problems}"


def test_the_static_check_sees_each_way_to_a_state(tmp_path):
    """Positive control: each way of reaching a state is reported."""
    sample = tmp_path / "leaky.py"
    sample.write_text(
        "from gameplay.reads.selectors import state_of\n"
        "from gameplay.engines.api import State\n"
        "import gameplay.reads.selectors\n"
        "def f(match, game):\n"
        "    return match.state, game.state_from_json({})\n",
        encoding="utf-8",
    )
    reads = state_reads(sample)
    assert len(reads) == 5, reads


def test_the_offline_harnesses_play_no_match():
    for relative in OFFLINE_HARNESSES:
        source = (ROOT / relative).read_text(encoding="utf-8")
        assert "gameplay.models" not in source and "gameplay.reads.selectors" not in source, relative


class StateWatch:
    """A profiler noting every agents_app function that returns while holding a State in its locals."""

    def __init__(self):
        self.seen: list[str] = []
        self.agent_frames = 0

    def __call__(self, frame, event, arg):
        if event != "return":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("agents_app"):
            return
        self.agent_frames += 1
        for name, value in frame.f_locals.items():
            for held in (value, arg):
                # A sample of a seat's information set (a search agent's) is not a match's state.
                if isinstance(held, State) and held.sampled_for is None:
                    self.seen.append(f"{module}.{frame.f_code.co_name}: {name}")

    def __enter__(self):
        sys.setprofile(self)
        threading.setprofile(self)
        return self

    def __exit__(self, *exc):
        sys.setprofile(None)
        threading.setprofile(None)


@pytest.mark.django_db
def test_agent_turns_chat_answers_and_verdicts_run_without_a_state_in_agents_app(eager_celery):  # noqa: F811
    from agents_app import chat_services, judging
    from agents_app.tasks import play_agent_turns
    from gameplay.models import Match
    from gameplay.writes import services
    from gameplay.writes.services import SeatController
    from tests.agents_app.llm.rap_support import ScriptedWorld
    from tests.agents_app.llm_match_support import llm_config
    from tests.support.openai_server import scripted_openai_server

    with scripted_openai_server(ScriptedWorld()) as server:
        llm_config("rap-watch", server.base_url, scaffold="rap", rap_depth=1, rap_iterations=2, vision=True)
        with StateWatch() as watch:
            # Codenames: a RAP Operative and random seats, to the end, through the agent task.
            seats = [SeatController("agent", agent_name="random") for _ in range(4)]
            seats[2] = SeatController("agent", agent_name="rap-watch")
            codenames = services.create_match("codenames", seats, seed=3, host_seat=None, schedule_agents=False)
            play_agent_turns(codenames.pk)
            # Santorini: a search agent (it searches samples of its seat's information set) against random.
            searchers = [SeatController("agent", agent_name="search-1"), SeatController("agent", agent_name="random")]
            santorini = services.create_match("santorini", searchers, seed=6, host_seat=None, schedule_agents=False)
            play_agent_turns(santorini.pk)
            # Debate: two random debaters, then the verdict (no judge model configured: the game's rule decides).
            debaters = [SeatController("agent", agent_name="random") for _ in range(2)]
            debate = services.create_match("debate", debaters, seed=4, host_seat=None, schedule_agents=False)
            play_agent_turns(debate.pk)
            judging.judge_match(debate.pk)
            # Gnomes: a person writes to a talking agent partner, which answers between moves.
            gnomes = services.create_match(
                "gnomes", [SeatController("human"), SeatController("agent", agent_name="rap-watch")], seed=5,
                host_seat=0, schedule_agents=False)
            services.post_message(gnomes.pk, 0, "Where are you?")
            chat_services.answer_chat(gnomes.pk)
    assert Match.objects.get(pk=codenames.pk).status == Match.Status.FINISHED
    assert Match.objects.get(pk=santorini.pk).status == Match.Status.FINISHED
    assert Match.objects.get(pk=debate.pk).status == Match.Status.FINISHED
    assert watch.agent_frames > 100  # the watch saw agents_app at work
    assert watch.seen == [], f"agents_app held a State: {sorted(set(watch.seen))[:10]}"


def test_the_runtime_watch_catches_a_state_in_agents_app():
    """Positive control: a function of agents_app holding a State is reported."""
    import types

    from gameplay.engines.registry import create_game

    module = types.ModuleType("agents_app.leaky_probe")
    exec("def peek(game):\n    state = game.new_initial_state(1)\n    return 0\n", module.__dict__)
    with StateWatch() as watch:
        module.peek(create_game("santorini"))
    assert any("peek: state" in seen for seen in watch.seen)


from tests.agents_app.llm_match_support import eager_celery  # noqa: E402, F401  (a fixture)
