"""Check a stored LLM agent configuration against its endpoint before it plays.

    python manage.py check_agent NAME [--game G [--decisions 5] [--seed 0]] [--json]

Sends the probe's small requests (JSON mode, logprobs, an image, a JSON schema in each of two styles), asks the
server for its context length and token counter, prints what works and stores it on the configuration
(``AgentConfig.capabilities``: the agent then asks for the most constrained reply format the endpoint enforces and
fits its prompts into the context).

With ``--game`` it then measures: the configuration, with what the probe found, plays N decisions of that game on the
engine alone (agents_app.evaluations.decision_bench), and the command prints the share valid at the first reply,
corrected and fallen back, the think time's p50 and p95 against the decision deadline, and the largest prompt the
server counted against the model's context; the measurement is stored too (agents_app.measurements), where the
preflight of tournaments, protocols, studies and play_match reads it.

Exit codes: 0 ready, 1 unreachable (or not a configuration), 2 reachable but unable to play as configured (e.g. RAP
on an endpoint without logprobs) or measured too slow (p95 think time above the deadline). The key is read from the
environment by the client only and never printed.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents_app import measurements, selectors, services
from agents_app.agents import registry
from agents_app.evaluations import measure_agent
from agents_app.services import RAP_WITHOUT_LOGPROBS
from gameplay.engines.registry import GAMES

UNREACHABLE, NOT_READY = 1, 2


class Command(BaseCommand):
    help = "Probe an LLM agent configuration's endpoint: reachability, JSON mode, logprobs, images, latency."

    def add_arguments(self, parser):
        parser.add_argument("name", help="the agent configuration's name")
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
        parser.add_argument("--game", choices=sorted(GAMES), help="then measure N decisions of this game")
        parser.add_argument("--decisions", type=int, default=5, help="decisions to measure (with --game)")
        parser.add_argument("--seed", type=int, default=0, help="seed of the measured matches (with --game)")

    def handle(self, *args, name: str, **options):
        if name in registry.AGENTS:
            raise CommandError(f"{name!r} is a built-in agent: it calls no model, there is nothing to check")
        config = selectors.agent_config(name)
        if config is None:
            known = ", ".join(c for c, _ in selectors.agent_choices() if c not in registry.AGENTS) or "none yet"
            raise CommandError(f"no agent configuration {name!r}; configured: {known}")
        game_id = options["game"]
        if game_id is not None and not config.plays_game(game_id):
            raise CommandError(f"agent {name!r} does not play {game_id}", returncode=NOT_READY)
        if game_id is not None and options["decisions"] < 1:
            raise CommandError("--decisions must be at least 1", returncode=NOT_READY)
        # Late import: only this command and LLM seats need the openai client.
        from agents_app.agents.llm import blocking_problems, probe, requires_logprobs

        settings = selectors.llm_settings(config)
        report = probe(settings)
        reachable = report.latency_ms is not None  # at least one request got an answer
        if reachable:
            services.store_capabilities(config, report.capabilities())
        problems = blocking_problems(settings, report) if reachable else []
        if requires_logprobs(settings) and reachable and not report.logprobs:
            # Say it in the words the operator will look for, whatever the probe's own wording.
            problems = [RAP_WITHOUT_LOGPROBS] + [p for p in problems if "logprobs" not in p]
        measured = None
        if game_id is not None and reachable and not problems:
            # The stored configuration as the probe left it: the agent asks in the format the endpoint enforces.
            config.refresh_from_db()
            try:
                measured = measure_agent.measure(config, game_id, options["decisions"], options["seed"])
            except ValueError as err:
                raise CommandError(str(err), returncode=NOT_READY) from None
            measurements.store(config, game_id, measured)
            if measurements.too_slow(measured, measured["deadline_s"]):
                problems.append(_too_slow(game_id, measured))
        if options["json"]:
            self.stdout.write(_as_json(name, settings, report, reachable, problems, game_id, measured))
        else:
            self.stdout.write(f"agent {name}: scaffold {settings.scaffold}")
            self.stdout.write(f"reachable: {'yes' if reachable else 'no'}")
            for line in report.lines():
                self.stdout.write(line)
            if measured is not None:
                for line in _measurement_lines(game_id, measured):
                    self.stdout.write(line)
            for problem in problems:
                self.stdout.write(problem)
            if reachable and not problems:
                self.stdout.write(self.style.SUCCESS("ready to play"))
        if not reachable:
            raise CommandError(f"agent {name!r}: the endpoint did not answer", returncode=UNREACHABLE)
        if problems and measured is not None:  # measured only when nothing else stood in the way
            raise CommandError(f"agent {name!r} is too slow for {game_id}", returncode=NOT_READY)
        if problems:
            raise CommandError(f"agent {name!r} cannot play as configured", returncode=NOT_READY)


def _measurement_lines(game_id: str, m: dict) -> list[str]:
    context = f"{m['context_tokens']} tokens" if m["context_tokens"] else "unknown"
    prompt = f"{m['largest_prompt_tokens']} tokens" if m["largest_prompt_tokens"] is not None else "not reported"
    return [
        f"measured on {game_id}: {m['decisions']} decisions in {m['matches']} match(es), seed {m['seed']}",
        f"  valid at the first reply {m['valid_first']:.0%}, corrected {m['corrected']:.0%}, "
        f"fallback {m['fallback']:.0%}",
        f"  think time: p50 {m['think_p50_s']:.3f} s, p95 {m['think_p95_s']:.3f} s; deadline {m['deadline_s']:g} s",
        f"  largest prompt: {prompt}; context: {context}",
    ]


def _too_slow(game_id: str, m: dict) -> str:
    return (f"too slow: the p95 think time {m['think_p95_s']:.3f} s exceeds the decision deadline of "
            f"{m['deadline_s']:g} s on {game_id}; tournaments, protocols, studies and play_match refuse it there "
            f"unless told to allow slow agents")


def _as_json(name, settings, report, reachable: bool, problems: list[str], game_id=None, measured=None) -> str:
    return json.dumps(
        {
            "agent": name,
            "model": report.model,
            "endpoint": report.endpoint,
            "scaffold": settings.scaffold,
            "reachable": reachable,
            "json_schema": report.json_schema,
            "schema_style": report.schema_style,
            "json_schema_detail": report.json_schema_detail,
            "json_mode": report.json_mode,
            "json_mode_detail": report.json_mode_detail,
            "context_tokens": report.context_tokens,
            "tokenizer": report.tokenizer,
            "logprobs": report.logprobs,
            "logprobs_detail": report.logprobs_detail,
            "images": report.images,
            "images_detail": report.images_detail,
            "latency_ms": report.latency_ms,
            "errors": list(report.errors),
            "problems": problems,
            "ready": reachable and not problems,
            **({"game": game_id, "measured": measured} if game_id is not None else {}),
        },
        ensure_ascii=False,
    )
