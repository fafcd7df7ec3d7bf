"""python manage.py bench_dialogue_solver [--game fruit_trading] [--depths 2,3] [--seeds 1] [--temperature 1.0]
[--base-url URL --model NAME] [--json]

What one solved dialogue tree costs: for each depth (and solver seed), the tree is generated afresh (an empty
in-memory cache, so every generation is a model call) and solved with CFR; printed are the tree's size, the model
calls it took, the generation and solver times and NashConv. Without --base-url it starts the repository's scripted
OpenAI-compatible server (from tests/support, so run it from a checkout) whose replies cost nothing: the times are
then the platform's own. Its replies sample as a model's would: at temperature 0 they depend on the prompt alone,
above it on the request's sampling seed too.

Requests go out at --temperature (default 1.0, OpenAI's own default: the LLM seeds are meant to be samples) with a
sampling seed each; LLM seeds that gave identical turns are reported (WARNING). --seeds N solves each depth with
seeds 0 .. N-1 and prints, per depth, the means of NashConv and the seats' values with their 95% t-intervals over
the seeds (agents_app.agents.intervals). JSON: the list of rows; with N > 1, {"rows": [...], "summary": {depth: ...}}.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from contextlib import ExitStack

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.dialogue import pipeline
from agents_app.agents.dialogue.generation import CachedModel, DictCache, chat_model_caller
from agents_app.agents.dialogue.tree import TreeOptions
from agents_app.agents.intervals import describe
from agents_app.agents.llm import LLMAgentSettings
from agents_app.agents.llm.client import ChatCaller, make_openai_client
from gameplay.engines.registry import GAMES, create_game

_MOVES = re.compile(r"^- (\S+): ", re.MULTILINE)


def _scripted_turns():
    """A stand-in model that samples like one: its reply is a function of the prompt (greedy decoding) at temperature
    0, and of the prompt and the request's seed above it. It picks one of the moves it is offered (accepting half the
    time it may)."""

    def reply(body):
        text = "\n".join(m.get("content") or "" for m in body["messages"] if m.get("role") == "user")
        moves = _MOVES.findall(text.split("Your legal moves", 1)[-1]) or ["talk"]
        sampled = float(body.get("temperature") or 0) > 0
        digest = hashlib.sha256(f"{text}\n{body.get('seed') if sampled else ''}".encode()).digest()
        rng = random.Random(digest)
        move = "accept" if "accept" in moves and rng.random() < 0.5 else rng.choice(moves)
        return json.dumps({"move": move, "message": f"Message {digest.hex()[:8]}: {move}."})

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
        parser.add_argument("--seeds", type=int, default=1, help="solver seeds per depth (0 .. N-1)")
        parser.add_argument("--temperature", type=float, default=1.0, help="sampling temperature of the turns")
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
        if opts["seeds"] < 1 or not 0.0 <= opts["temperature"] <= 2.0:
            raise CommandError("--seeds must be at least 1 and --temperature between 0 and 2")
        with ExitStack() as stack:
            base_url = opts["base_url"]
            if not base_url:
                try:  # the test suite's server: a development tool, only in a checkout
                    from tests.support.openai_server import scripted_openai_server
                except ImportError:
                    raise CommandError("no scripted server here (run from a checkout): give --base-url") from None
                base_url = stack.enter_context(scripted_openai_server(_scripted_turns())).base_url
            settings = LLMAgentSettings(name="bench", base_url=base_url, model=opts["model"],
                                        api_key_env=opts["api_key_env"], http_retries=0,
                                        temperature=opts["temperature"])
            client = make_openai_client(settings)
            runs = [self.bench(opts, depth, seed, settings, client)
                    for depth in depths for seed in range(opts["seeds"])]
        rows = [row for row, _ in runs]
        summary = {
            str(depth): pipeline.across_seeds([result for row, result in runs if row["depth"] == depth])
            for depth in depths
        } if opts["seeds"] > 1 else None
        if opts["json"]:
            self.stdout.write(json.dumps(rows if summary is None else {"rows": rows, "summary": summary}))
            return
        endpoint = base_url if opts["base_url"] else "scripted"
        self.stdout.write(f"{opts['game']}: llm seeds {opts['llm_seeds']} at temperature {opts['temperature']:g}, "
                          f"init states {opts['init_states']}, CFR iterations {opts['iterations']}, "
                          f"endpoint {endpoint}")
        self.stdout.write("depth  nodes  decisions  infosets  leaves  model calls  generate s  solve s  total s"
                          "  NashConv  seed")
        for row in rows:
            self.stdout.write(
                f"{row['depth']:>5}  {row['nodes']:>5}  {row['decision_nodes']:>9}  {row['infosets']:>8}  "
                f"{row['terminals']:>6}  {row['model_calls']:>11}  {row['generate_s']:>10.3f}  {row['solve_s']:>7.3f}"
                f"  {row['total_s']:>7.3f}  {row['nash_conv']:>8.4f}  {row['seed']:>4}"
            )
        for row in rows:
            for warning in row["warnings"]:
                self.stdout.write(f"WARNING (depth {row['depth']}, seed {row['seed']}): {warning}")
        for depth, entry in (summary or {}).items():
            values = ", ".join(f"Player {seat + 1} {describe(v)}" for seat, v in enumerate(entry["values"]))
            self.stdout.write(f"depth {depth}, {entry['seeds']} seeds ({entry['method']}): NashConv "
                              f"{describe(entry['nash_conv'])}; values {values}")

    def bench(self, opts: dict, depth: int, seed: int, settings: LLMAgentSettings, client) -> tuple[dict, dict]:
        model = CachedModel(settings.model, chat_model_caller(lambda: ChatCaller(client, settings)), DictCache(),
                            seed=seed, temperature=settings.temperature)
        started = time.monotonic()
        result = pipeline.solve(
            create_game(opts["game"]), model, solver="cfr",
            options=TreeOptions(depth=depth, llm_seeds=opts["llm_seeds"], init_states=opts["init_states"], seed=seed),
            iterations=opts["iterations"],
        )
        row = {
            "depth": depth, "seed": seed, **result["tree"], "model_calls": model.stats.model_calls,
            "fallbacks": len(result["fallbacks"]), **result["timing"],
            "total_s": round(time.monotonic() - started, 3), "nash_conv": result["nash_conv"],
            "values": result["values"], "warnings": result["warnings"],
        }
        return row, result
