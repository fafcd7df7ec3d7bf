"""python manage.py bench_agent --base-url URL --model NAME [--game santorini|all|a,b] [--decisions 50 | --matches 3]
       [--scaffolds base,cot]

Plays N decisions per scaffold of an LLM agent against any OpenAI-compatible server (a local llama.cpp server, vLLM,
Ollama, or a hosted API) and prints what they cost and how they went: the share of decisions valid at the first
reply, corrected (valid after one or more corrections) and fallen back; model calls and prompt/completion tokens
per decision; think time (median, p95 and max); the largest prompt the server counted; and the reply formats used.
The positions come from seeded matches of any registered game, the other seats playing random moves (or their text
actions' example texts) with the engine alone (agents_app.evaluations.decision_bench; no database), so runs
compare. The endpoint is probed first (as check_agent does) unless --no-probe: its capabilities decide the reply
format (--reply-format auto).

Each run also says how many moves were an action the prompt suggested (its example; issue 42) and how many the first
action listed: a model that copies or always takes the first is measured as such, not as playing. With several games
(``--game all`` or a comma-separated list) it ends with one table, a row per game and scaffold.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents_app.agents.llm import LLMAgent, LLMAgentSettings, probe
from agents_app.agents.llm.settings import REPLY_FORMATS, SCAFFOLDS
from agents_app.evaluations.decision_bench import play_decisions
from gameplay.engines.registry import GAMES


class Command(BaseCommand):
    help = "Benchmark an LLM agent's decisions against an OpenAI-compatible server."

    def add_arguments(self, parser):
        parser.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8089/v1")
        parser.add_argument("--model", required=True)
        parser.add_argument("--api-key-env", default="", help="NAME of the variable holding the key (none: local)")
        parser.add_argument("--game", default="santorini",
                            help=f"a game, a comma-separated list, or all: {', '.join(GAMES)}")
        parser.add_argument("--decisions", type=int, default=50, help="decisions per scaffold (and game)")
        parser.add_argument("--matches", type=int, default=0, help="play this many whole matches instead")
        parser.add_argument("--scaffolds", default="base", help=f"comma-separated, of {', '.join(SCAFFOLDS)}")
        parser.add_argument("--reply-format", default="auto", choices=REPLY_FORMATS)
        parser.add_argument("--context-tokens", type=int, default=0, help="the model's context (0: as probed)")
        parser.add_argument("--max-tokens", type=int, default=256)
        parser.add_argument("--deadline", type=float, default=30.0, help="decision deadline in seconds")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--no-probe", action="store_true", help="do not probe: JSON mode unless told otherwise")
        parser.add_argument("--json", action="store_true", help="print one JSON object per scaffold")

    def handle(self, *args, **opts):
        scaffolds = [s.strip() for s in opts["scaffolds"].split(",") if s.strip()]
        unknown = [s for s in scaffolds if s not in SCAFFOLDS]
        if unknown or (opts["decisions"] < 1 and opts["matches"] < 1):
            raise CommandError(f"unknown scaffold(s) {unknown} or no decisions", returncode=2)
        games = sorted(GAMES) if opts["game"] == "all" else [g.strip() for g in opts["game"].split(",") if g.strip()]
        if not games or any(g not in GAMES for g in games):
            raise CommandError(f"unknown game in {opts['game']!r}; known: {', '.join(sorted(GAMES))}, all",
                               returncode=2)
        base = LLMAgentSettings(
            name="bench", base_url=opts["base_url"], model=opts["model"], api_key_env=opts["api_key_env"],
            reply_format=opts["reply_format"], context_tokens=opts["context_tokens"], max_tokens=opts["max_tokens"],
            decision_deadline_s=opts["deadline"], timeout_s=opts["deadline"],
        )
        if not opts["no_probe"]:
            report = probe(base)
            for line in report.lines():
                self.stderr.write(f"probe: {line}")
            base = LLMAgentSettings(**{**base.__dict__, "capabilities": report.capabilities()})
        results = []
        for game_id in games:
            for scaffold in scaffolds:
                settings = LLMAgentSettings(**{**base.__dict__, "scaffold": scaffold})
                result = self.bench(settings, game_id, opts["decisions"], opts["seed"], opts["matches"] or None)
                results.append(result)
                self.stdout.write(json.dumps(result) if opts["json"] else self.table(result))
        if len(results) > 1 and not opts["json"]:
            self.stdout.write("")
            self.stdout.write(self.summary_table(results))

    def bench(self, settings: LLMAgentSettings, game_id: str, decisions: int, seed: int,
              matches: int | None = None) -> dict:
        run = play_decisions(LLMAgent(settings), game_id, decisions, seed, matches=matches)
        if not run.records:
            raise CommandError(f"{game_id}: the agent's seat was never given a decision", returncode=2)
        return {"scaffold": settings.scaffold, "model": settings.model, **run.summary()}

    @staticmethod
    def summary_table(results: list[dict]) -> str:
        head = ("game", "scaffold", "decisions", "valid first", "fallback", "think p50", "think p95",
                "largest prompt", "copied", "first listed")
        rows = [(r["game"], r["scaffold"], str(r["decisions"]), f"{r['valid']:.0%}", f"{r['fallback']:.0%}",
                 f"{r['think_s_median']:.1f} s", f"{r['think_s_p95']:.1f} s",
                 "-" if r["largest_prompt_tokens"] is None else str(r["largest_prompt_tokens"]),
                 _share(r["copied_suggestion"]), _share(r["first_listed"])) for r in results]
        widths = [max(len(row[i]) for row in (head, *rows)) for i in range(len(head))]
        lines = [" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in (head, *rows)]
        lines.insert(1, "-+-".join("-" * w for w in widths))
        return "\n".join(lines)

    @staticmethod
    def table(r: dict) -> str:
        return (
            f"{r['game']} / {r['scaffold']} / {r['model']}: {r['decisions']} decisions in {r['matches']} match(es)\n"
            f"  valid {r['valid']:.0%}  corrected {r['corrected']:.0%}  fallback {r['fallback']:.0%}\n"
            f"  per decision: {r['calls_per_decision']:.2f} calls, {r['prompt_tokens_per_decision']:.0f} prompt + "
            f"{r['completion_tokens_per_decision']:.0f} completion tokens\n"
            f"  think time: median {r['think_s_median']:.2f} s, p95 {r['think_s_p95']:.2f} s, "
            f"max {r['think_s_max']:.2f} s\n"
            f"  largest prompt: {_tokens(r['largest_prompt_tokens'])}\n"
            f"  moves copied from a suggestion: {_share(r['copied_suggestion'])}, the first listed: "
            f"{_share(r['first_listed'])}\n"
            f"  reply formats asked: {r['reply_formats']}"
        )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _tokens(count: int | None) -> str:
    return f"{count} tokens" if count is not None else "not reported by the server"
