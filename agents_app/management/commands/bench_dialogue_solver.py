"""python manage.py bench_dialogue_solver [--game fruit_trading] [--depths 2,3] [--base-url URL --model NAME] [--json]

What one solved dialogue tree costs: for each depth, the tree is generated afresh (an empty in-memory cache, so
every generation is a model call) and solved with CFR; printed are the tree's size, the model calls it took, and the
generation and solver times. Without --base-url it starts the repository's scripted OpenAI-compatible server (from
tests/support, so run it from a checkout) whose replies cost nothing: the times are then the platform's own.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from contextlib import ExitStack

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.dialogue import pipeline
from agents_app.agents.dialogue.generation import CachedModel, DictCache, chat_model_caller
from agents_app.agents.dialogue.tree import TreeOptions
from agents_app.agents.llm import LLMAgentSettings
from agents_app.agents.llm.client import ChatCaller, make_openai_client
from gameplay.engines.registry import GAMES, create_game

_MOVES = re.compile(r"^- (\S+): ", re.MULTILINE)


def _scripted_turns():
    """A stand-in model: cycles through the moves it is offered (accepting every other time it may)."""
    counter = itertools.count()

    def reply(body):
        text = "\n".join(m.get("content") or "" for m in body["messages"] if m.get("role") == "user")
        moves = _MOVES.findall(text.split("Your legal moves", 1)[-1]) or ["talk"]
        n = next(counter)
        move = "accept" if "accept" in moves and n % 2 else moves[n % len(moves)]
        return json.dumps({"move": move, "message": f"Message {n}: {move}."})

    return reply


class Command(BaseCommand):
    help = "Benchmark the dialogue solver: tree size, model calls and times per solved tree at depths 2 and 3."

    def add_arguments(self, parser):
        dialogue_games = sorted(g for g, cls in GAMES.items() if cls.spec.dialogue is not None)
        parser.add_argument("--game", default="fruit_trading" if "fruit_trading" in GAMES else None,
                            help=f"a dialogue game ({', '.join(dialogue_games) or 'none registered'})")
        parser.add_argument("--depths", default="2,3")
        parser.add_argument("--llm-seeds", type=int, default=2)
        parser.add_argument("--init-states", type=int, default=1)
        parser.add_argument("--iterations", type=int, default=100)
        parser.add_argument("--base-url", default="", help="an OpenAI-compatible endpoint (default: scripted)")
        parser.add_argument("--model", default="scripted-model")
        parser.add_argument("--api-key-env", default="")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        if not opts["game"] or opts["game"] not in GAMES or GAMES[opts["game"]].spec.dialogue is None:
            raise CommandError(f"--game must name a registered dialogue game, not {opts['game']!r}")
        try:
            depths = [int(d) for d in opts["depths"].split(",")]
        except ValueError:
            raise CommandError("--depths: comma-separated numbers") from None
        with ExitStack() as stack:
            base_url = opts["base_url"]
            if not base_url:
                try:  # the test suite's server: a development tool, only in a checkout
                    from tests.support.openai_server import scripted_openai_server
                except ImportError:
                    raise CommandError("no scripted server here (run from a checkout): give --base-url") from None
                base_url = stack.enter_context(scripted_openai_server(_scripted_turns())).base_url
            settings = LLMAgentSettings(name="bench", base_url=base_url, model=opts["model"],
                                        api_key_env=opts["api_key_env"], http_retries=0)
            client = make_openai_client(settings)
            rows = [self.bench(opts, depth, settings, client) for depth in depths]
        if opts["json"]:
            self.stdout.write(json.dumps(rows))
            return
        endpoint = base_url if opts["base_url"] else "scripted"
        self.stdout.write(f"{opts['game']}: llm seeds {opts['llm_seeds']}, init states {opts['init_states']}, "
                          f"CFR iterations {opts['iterations']}, endpoint {endpoint}")
        self.stdout.write("depth  nodes  decisions  infosets  leaves  model calls  generate s  solve s  total s")
        for row in rows:
            self.stdout.write(
                f"{row['depth']:>5}  {row['nodes']:>5}  {row['decision_nodes']:>9}  {row['infosets']:>8}  "
                f"{row['terminals']:>6}  {row['model_calls']:>11}  {row['generate_s']:>10.3f}  {row['solve_s']:>7.3f}"
                f"  {row['total_s']:>7.3f}"
            )

    def bench(self, opts: dict, depth: int, settings: LLMAgentSettings, client) -> dict:
        model = CachedModel(settings.model, chat_model_caller(lambda: ChatCaller(client, settings)), DictCache())
        started = time.monotonic()
        result = pipeline.solve(
            create_game(opts["game"]), model, solver="cfr",
            options=TreeOptions(depth=depth, llm_seeds=opts["llm_seeds"], init_states=opts["init_states"]),
            iterations=opts["iterations"],
        )
        return {
            "depth": depth, **result["tree"], "model_calls": model.stats.model_calls,
            "fallbacks": len(result["fallbacks"]), **result["timing"],
            "total_s": round(time.monotonic() - started, 3), "nash_conv": result["nash_conv"],
        }
